package io.jupiter.rpc;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What every logger printed during each test, for tests that count or read log lines: register it as a field with
 * {@code @RegisterExtension}.
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {

    private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @Override
    public void beforeEach(ExtensionContext context) {
        // the logging thread appends while the test reads: a list that iterates over a snapshot
        appender.list = new CopyOnWriteArrayList<>();
        appender.start();
        root.addAppender(appender);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        root.detachAppender(appender);
        appender.stop();
    }

    /** The lines logged so far in this test, as they come (a live list: copy it to keep a moment's view). */
    public List<ILoggingEvent> events() {
        return appender.list;
    }
}
