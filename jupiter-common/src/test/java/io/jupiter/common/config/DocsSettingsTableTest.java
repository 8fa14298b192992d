package io.jupiter.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings table of {@value #DOCUMENT} is {@link SettingsTable#markdown} of {@link JupiterSettings#all()}. Run
 * with {@code -Djupiter.settings.docs.update=true} to rewrite that table instead of failing.
 */
class DocsSettingsTableTest {

    static final String DOCUMENT = "docs/configuration.md";
    static final String UPDATE_PROPERTY = "jupiter.settings.docs.update";
    static final String REGENERATE = "mvn -B -q -pl jupiter-common verify -Dtest=DocsSettingsTableTest -D"
            + UPDATE_PROPERTY + "=true";

    @Test
    void documentedTableIsGeneratedFromTheDeclarations() throws IOException {
        Path document = RepositoryRoot.find().resolve(DOCUMENT);
        String text = Files.readString(document, StandardCharsets.UTF_8);
        String generated = SettingsTable.markdown(JupiterSettings.all());
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.writeString(document, SettingsTable.withTable(text, generated), StandardCharsets.UTF_8);
            return;
        }
        String current = SettingsTable.section(text);
        assertThat(current).as("%s has a '%s' ... '%s' section", document, SettingsTable.BEGIN, SettingsTable.END)
                .isNotNull();
        if (!current.equals(generated)) {
            fail("the settings table of " + document + " differs from JupiterSettings; regenerate it with\n  "
                    + REGENERATE + "\n" + diff(current, generated));
        }
    }

    @Test
    void tableSectionIsReplacedBetweenTheMarkers() {
        String markdown = "intro\n" + SettingsTable.BEGIN + "\nold\n" + SettingsTable.END + "\nrest\n";
        String updated = SettingsTable.withTable(markdown, "| new |\n");
        assertThat(updated).isEqualTo("intro\n" + SettingsTable.BEGIN + "\n| new |\n" + SettingsTable.END + "\nrest\n");
        assertThat(SettingsTable.section(updated)).isEqualTo("| new |\n");
    }

    /** The lines only in {@code current} ("- ") and only in {@code generated} ("+ "), in order. */
    private static String diff(String current, String generated) {
        List<String> was = current.lines().toList();
        List<String> now = generated.lines().toList();
        StringBuilder diff = new StringBuilder();
        was.stream().filter(line -> !now.contains(line)).forEach(line -> diff.append("- ").append(line).append('\n'));
        now.stream().filter(line -> !was.contains(line)).forEach(line -> diff.append("+ ").append(line).append('\n'));
        return diff.length() == 0 ? "(same lines, in another order)" : diff.toString();
    }
}
