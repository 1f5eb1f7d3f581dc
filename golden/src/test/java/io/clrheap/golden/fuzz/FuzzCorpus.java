package io.clrheap.golden.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.tukaani.xz.XZInputStream;

/**
 * The committed corpus, {@code golden/fuzz-corpus/}: {@code TARGET/} holds a target's seeds (small valid inputs),
 * {@code regressions/TARGET/} the inputs that once made it fail, named for what they triggered. A file ending in
 * {@code .xz} (but not {@code .tar.xz}, which is itself a bundle input) is stored compressed and is the input once
 * decompressed: a 1.5 MB core is 10 KB of xz.
 */
final class FuzzCorpus {

    /** Where the corpus is, from the golden module (the tests' working directory) or the repository root. */
    static Path root() {
        Path inModule = Path.of("fuzz-corpus");
        return Files.isDirectory(inModule) ? inModule : Path.of("golden", "fuzz-corpus");
    }

    record Input(String name, byte[] bytes) {
    }

    static List<Input> seeds(String target) {
        return load(root().resolve(target));
    }

    static List<Input> regressions(String target) {
        return load(root().resolve("regressions").resolve(target));
    }

    private static List<Input> load(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Input> inputs = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                inputs.add(new Input(f.getFileName().toString(), read(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inputs;
    }

    static byte[] read(Path file) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(".xz") && !name.endsWith(".tar.xz")) {
            try (InputStream in = new XZInputStream(Files.newInputStream(file))) {
                return in.readAllBytes();
            }
        }
        return Files.readAllBytes(file);
    }
}
