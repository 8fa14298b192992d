package io.jupiter.protocol.http;

import java.util.concurrent.Flow;

/** Server streams of plain values: callable over HTTP/JSON as newline-delimited JSON. */
public interface Numbers {

    /** 1, 2, ... {@code n}, then the end. */
    Flow.Publisher<Long> upTo(long n);

    /** {@code n} numbers, then the method's error ({@link IllegalStateException}). */
    Flow.Publisher<Long> failAfter(long n);

    /** {@code n} strings of {@code size} characters, as fast as the stream takes them. */
    Flow.Publisher<String> text(int n, int size);

    /** {@code text}, {@code n} times. */
    Flow.Publisher<String> repeat(String text, int n);
}
