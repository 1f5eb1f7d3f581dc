package io.clrheap.conformance;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A heap walker in any language, run as a command: {@code {dump}} in its command line is replaced by the fixture's
 * path (quoted as one argument). It runs without a shell, its output goes to a file (a walker that prints gigabytes
 * cannot stall on a pipe or fill the Java heap), and one that outlives its time is killed with its children.
 *
 * @param command the command line, split on spaces; {@code {dump}} marks the dump's argument
 * @param timeoutSeconds how long one fixture may take
 */
public record ExternalWalker(List<String> command, long timeoutSeconds) {

    /** What a run left: its exit code (or -1 when killed), whether it timed out, its output file and the end of its stderr. */
    public record Run(int exitCode, boolean timedOut, Path output, String errorTail) {
        public boolean crashed() {
            return !timedOut && exitCode != 0;
        }
    }

    public ExternalWalker {
        command = List.copyOf(command);
        if (command.isEmpty() || command.stream().noneMatch(a -> a.contains("{dump}"))) {
            throw new IllegalArgumentException("the walker command must name the dump as {dump}, e.g. 'mywalker --stat {dump}'");
        }
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("the timeout is at least 1 second");
        }
    }

    /** Parses {@code 'COMMAND ARGS {dump}'}: words split on spaces ("quotes" keep spaces inside one word). */
    public static ExternalWalker parse(String commandLine, long timeoutSeconds) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char c : commandLine.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (c == ' ' && !quoted) {
                if (any) {
                    words.add(word.toString());
                }
                word.setLength(0);
                any = false;
            } else {
                word.append(c);
                any = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("an unmatched \" in the walker command: " + commandLine);
        }
        if (any) {
            words.add(word.toString());
        }
        return new ExternalWalker(words, timeoutSeconds);
    }

    /** Runs the walker on {@code dump}; its output goes to {@code outputFile}. */
    public Run run(Path dump, Path outputFile) throws IOException, InterruptedException {
        List<String> args = command.stream().map(a -> a.replace("{dump}", dump.toString())).toList();
        Path errors = Files.createTempFile(outputFile.getParent(), "walker", ".err");
        try {
            Process p;
            try {
                p = new ProcessBuilder(args).redirectOutput(outputFile.toFile()).redirectError(errors.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            } catch (IOException e) {
                Files.writeString(outputFile, "");
                return new Run(-1, false, outputFile, "cannot start " + args.get(0) + ": " + e.getMessage());
            }
            boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!finished) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            return new Run(finished ? p.exitValue() : -1, !finished, outputFile, tail(errors));
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static String tail(Path file) throws IOException {
        long size = Files.size(file);
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            int n = (int) Math.min(size, 2000);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n);
            ch.read(b, size - n);
            return new String(b.array(), 0, b.position(), java.nio.charset.StandardCharsets.UTF_8).strip();
        }
    }
}
