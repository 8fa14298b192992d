package io.jupiter.protocol.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the machine's own {@code curl} and returns its answer: the HTTP status and the body. */
final class Curl {

    /** What curl printed: the status ({@code 000} when it got no response) and the body. */
    record Reply(int status, String body, int exitCode) {
    }

    private Curl() {
    }

    /** {@code curl -X POST --data body url}, with a JSON content type and a 20-second limit. */
    static Reply post(String url, String body) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "-X", "POST",
                "-H", "Content-Type: application/json", "-w", "\n%{http_code}", url));
        if (body != null) {
            command.add("--data-binary");
            command.add(body);
        }
        return run(command);
    }

    static Reply run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("curl did not finish: " + command);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        int cut = text.lastIndexOf('\n');
        int status = cut < 0 ? 0 : parse(text.substring(cut + 1).trim());
        return new Reply(status, cut < 0 ? text : text.substring(0, cut), process.exitValue());
    }

    private static int parse(String code) {
        try {
            return Integer.parseInt(code);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
