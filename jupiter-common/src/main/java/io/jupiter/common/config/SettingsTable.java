package io.jupiter.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Markdown table of {@link JupiterSettings}, and the section of a Markdown file it fills: the lines between
 * {@value #BEGIN} and {@value #END}. {@code main} rewrites that section of the file it is given.
 */
public final class SettingsTable {

    /** The line before the generated table. */
    public static final String BEGIN = "<!-- settings:begin (generated from JupiterSettings; do not edit) -->";
    /** The line after the generated table. */
    public static final String END = "<!-- settings:end -->";

    private SettingsTable() {
    }

    /** Rewrites the settings section of the Markdown file {@code args[0]} (e.g. {@code docs/configuration.md}). */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: SettingsTable <docs/configuration.md>");
        }
        Path file = Path.of(args[0]);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, withTable(text, markdown(JupiterSettings.all())), StandardCharsets.UTF_8);
    }

    /** The table of {@code settings}, one row each, ending with a line break. */
    public static String markdown(List<Setting<?>> settings) {
        StringBuilder table = new StringBuilder();
        table.append("| setting | default | accepts | where: code; system property (older names also read) |\n");
        table.append("|---|---|---|---|\n");
        for (Setting<?> setting : settings) {
            table.append("| ").append(setting.doc())
                    .append(" | ").append(setting.defaultText())
                    .append(" | ").append(escape(setting.accepts()))
                    .append(" | ").append(where(setting))
                    .append(" |\n");
        }
        return table.toString();
    }

    /** The table section of {@code markdown}: the lines between the markers, or {@code null} without them. */
    public static String section(String markdown) {
        int begin = markdown.indexOf(BEGIN);
        int end = markdown.indexOf(END);
        if (begin < 0 || end < begin) {
            return null;
        }
        return markdown.substring(begin + BEGIN.length() + 1, end);
    }

    /** {@code markdown} with the lines between the markers replaced by {@code table}. */
    public static String withTable(String markdown, String table) {
        int begin = markdown.indexOf(BEGIN);
        int end = markdown.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no '" + BEGIN + "' ... '" + END + "' section");
        }
        return markdown.substring(0, begin + BEGIN.length()) + "\n" + table + markdown.substring(end);
    }

    private static String where(Setting<?> setting) {
        StringBuilder where = new StringBuilder();
        if (setting.where() != null) {
            where.append(setting.where());
        }
        if (setting.property() != null) {
            if (where.length() > 0) {
                where.append("; ");
            }
            where.append("`-D").append(setting.property()).append('`');
            if (!setting.aliases().isEmpty()) {
                where.append(setting.aliases().stream().map(alias -> "`-D" + alias + "`")
                        .collect(Collectors.joining(", ", " (", ")")));
            }
        }
        return where.toString();
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
