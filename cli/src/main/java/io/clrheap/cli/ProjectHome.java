package io.clrheap.cli;

import io.clrheap.conformance.corpus.GoldenCorpus;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * The clrheap project folder the command line runs from, to find what the project commits (the golden corpus): the
 * {@code clrheap.home} system property, which the {@code ./clrheap} launcher sets, else the folder the code was loaded
 * from — {@code generator/target/clrheap-cli.jar} or {@code generator/target/classes} — three levels up.
 */
final class ProjectHome {

    /** The system property naming the project folder. */
    static final String PROPERTY = "clrheap.home";

    private ProjectHome() {
    }

    /** The project folder, when the property names one or the code runs from its build output; else empty. */
    static Optional<Path> root() {
        String home = System.getProperty(PROPERTY);
        if (home != null && !home.isBlank()) {
            return Optional.of(Path.of(home).toAbsolutePath().normalize());
        }
        return fromCodeLocation(codeLocation());
    }

    /** The project's golden corpus folder, {@code golden/synthetic}, when the project folder is known. */
    static Optional<Path> goldenCorpus() {
        return root().map(r -> r.resolve(GoldenCorpus.PROJECT_LOCATION));
    }

    /** {@code ROOT} for {@code ROOT/cli/target/<jar or classes>} when ROOT looks like the project (a pom.xml, a golden folder). */
    static Optional<Path> fromCodeLocation(Path location) {
        if (location == null) {
            return Optional.empty();
        }
        Path target = location.toAbsolutePath().normalize().getParent();
        if (target == null || !target.getFileName().toString().equals("target") || target.getParent() == null
                || !target.getParent().getFileName().toString().equals("cli") || target.getParent().getParent() == null) {
            return Optional.empty();
        }
        Path root = target.getParent().getParent();
        return Files.isRegularFile(root.resolve("pom.xml")) && Files.isDirectory(root.resolve("golden")) ? Optional.of(root) : Optional.empty();
    }

    private static Path codeLocation() {
        CodeSource source = ProjectHome.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null; // not a file on disk (e.g. loaded over the network): only the property can say
        }
    }
}
