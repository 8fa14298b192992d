package io.jupiter.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a bad {@code jupiter.*} property or {@code @JupiterReference} attribute as such when the start fails. */
final class InvalidJupiterPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidJupiterPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidJupiterPropertyException cause) {
        return new FailureAnalysis("Jupiter is misconfigured: " + cause.getMessage(),
                "Correct the property or attribute named above (see docs/spring.md for every jupiter.* property).",
                cause);
    }
}
