package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code clrheap aot-training DIR} (hidden): the training run of the launcher's ahead-of-time cache (JEP 483, 514,
 * 515). Run once per build under {@code -XX:AOTCacheOutput}; the classes it loads and links, and the method profiles
 * it gathers, are what later runs start with. It runs the common paths in this JVM, their output discarded: the help,
 * {@code --version}, generating the {@code default} scenario's ELF core into DIR, then {@code walk} of that core, plain
 * and xz-compressed (a real dump's path), with each report.
 */
@Command(name = "aot-training", hidden = true,
        description = {"The launcher's training run for its start-up cache (not for use by hand)."})
final class AotTrainingCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "A folder to write the training's fixture into.")
    Path dir;

    @Override
    public Integer call() throws IOException {
        Files.createDirectories(dir);
        // the file generate writes: SCENARIO-RUNTIME-GC.core
        String name = new FixtureName("default", RuntimeVersion.NET8, GcFlavor.SERVER).toString();
        String core = dir.resolve(name + ".core").toString();
        String xz = dir.resolve(name + ".core.xz").toString();
        int failures = 0;
        failures += run("--help");
        failures += run("--version");
        failures += run("walk", "--help");
        failures += run("generate", "--scenario", "default", "--runtime", "net8", "--gc", "server", "--format", "elf", "--out", dir.toString(), "-q");
        try (InputStream in = Files.newInputStream(Path.of(core));
                OutputStream out = new XZOutputStream(Files.newOutputStream(Path.of(xz)), new LZMA2Options(0))) {
            in.transferTo(out);
        }
        for (List<String> report : List.of(List.of("--stat"), List.of("--objects"), List.of("--eeheap"), List.of("--handles"),
                List.of("--verify"), List.of("--stat", "--json"), List.of("--stat", "--parallel", "1"))) {
            for (String dump : List.of(core, xz)) {
                String[] args = new String[report.size() + 2];
                args[0] = "walk";
                args[1] = dump;
                for (int i = 0; i < report.size(); i++) {
                    args[i + 2] = report.get(i);
                }
                failures += run(args);
            }
        }
        return failures == 0 ? 0 : 1;
    }

    /** One command line in this JVM, its output thrown away; 1 when it did not succeed. */
    private static int run(String... args) {
        PrintWriter sink = new PrintWriter(Writer.nullWriter());
        int code = ClrheapCommand.execute(args, sink, sink);
        if (code != 0) {
            System.err.println("clrheap aot-training: " + String.join(" ", args) + " exited with " + code);
        }
        return code == 0 ? 0 : 1;
    }
}
