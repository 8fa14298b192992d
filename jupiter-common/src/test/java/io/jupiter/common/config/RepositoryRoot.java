package io.jupiter.common.config;

import java.nio.file.Files;
import java.nio.file.Path;

/** The source tree's root: the first directory above the working directory with README.md and jupiter-common. */
final class RepositoryRoot {

    private RepositoryRoot() {
    }

    static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("jupiter-common"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no README.md next to jupiter-common above " + Path.of("").toAbsolutePath());
    }
}
