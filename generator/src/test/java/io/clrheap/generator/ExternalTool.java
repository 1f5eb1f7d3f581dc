package io.clrheap.generator;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A command-line tool the tests run when it is installed: found on PATH under any of its names; a test that needs it
 * is skipped, saying which tool is missing and which Debian package has it, when it is not.
 */
public record ExternalTool(String what, String install, List<String> names) {

    public static final ExternalTool GDB = new ExternalTool("gdb", "the Debian package gdb (apt-get install gdb)", List.of("gdb"));
    public static final ExternalTool EU_READELF = new ExternalTool("eu-readelf", "the Debian package elfutils (apt-get install elfutils)", List.of("eu-readelf"));
    public static final ExternalTool EU_UNSTRIP = new ExternalTool("eu-unstrip", "the Debian package elfutils (apt-get install elfutils)", List.of("eu-unstrip"));
    public static final ExternalTool LLDB = new ExternalTool("lldb 16", "the Debian package lldb-16 (apt-get install lldb-16)", List.of("lldb-16"));
    public static final ExternalTool OBJ2YAML = new ExternalTool("obj2yaml",
            "the Debian package llvm (apt-get install llvm; or llvm-16, which has obj2yaml-16)", List.of("obj2yaml", "obj2yaml-16", "obj2yaml-14"));
    public static final ExternalTool LLVM_READOBJ = new ExternalTool("llvm-readobj",
            "the Debian package llvm (apt-get install llvm; or llvm-16, which has llvm-readobj-16)",
            List.of("llvm-readobj", "llvm-readobj-16", "llvm-readobj-14"));
    /** A real browser for the heap map page (clrheap map): run headless, it dumps the DOM and takes screenshots. */
    public static final ExternalTool CHROMIUM = new ExternalTool("Chromium", "the Debian package chromium (apt-get install chromium)",
            List.of("chromium", "chromium-browser"));

    /** The tool's path, or the test is skipped with a message naming the tool and its package. */
    public Path require() {
        Optional<Path> found = find();
        if (found.isEmpty()) {
            String message = what + " is not on PATH (looked for " + String.join(", ", names) + "): install " + install + " to run this check";
            if ("1".equals(System.getenv("CLRHEAP_REQUIRE_TOOLS"))) {
                // CI installs every tool: a missing one there is a broken install, not a reason to skip
                throw new AssertionError(message + " (CLRHEAP_REQUIRE_TOOLS=1)");
            }
            System.err.println("SKIPPED: " + message); // visible in the build's output, not only in the test report
            assumeTrue(false, message);
        }
        return found.orElseThrow();
    }

    public Optional<Path> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : names) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** What a run printed (stdout and stderr together) and its exit code. */
    public record Result(int exitCode, String output) {
    }

    /** Runs the tool with {@code arguments}, at most {@code seconds}; output goes through a file, so a full pipe cannot stall it. */
    public static Result run(Path tool, List<String> arguments, Path workDir, int seconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(tool.toString());
        command.addAll(arguments);
        Path output = Files.createTempFile(workDir, "tool", ".out");
        Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(tool.getFileName() + " did not finish within " + seconds + " s: " + command);
        }
        return new Result(process.exitValue(), new String(Files.readAllBytes(output), StandardCharsets.UTF_8));
    }
}
