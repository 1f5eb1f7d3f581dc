package io.clrheap.conformance;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A heap walker in any language, run as a command: {@code {dump}} in its command line is replaced by the fixture's
 * path (quoted as one argument). It runs without a shell, its output goes to a file (a walker that prints gigabytes
 * cannot stall on a pipe or fill the Java heap; more than {@link #MAX_OUTPUT_BYTES} and it is stopped), and when it
 * ends — by itself, or killed after its time — every process it started is ended too: its descendants while it runs
 * ({@link ProcessHandle#descendants()}) and, on Linux, any process that carries the run's mark in its environment (a
 * background child the walker left behind, no longer its descendant once the walker exited). Each is asked to stop
 * ({@link ProcessHandle#destroy()}), then killed ({@link ProcessHandle#destroyForcibly()}) after {@link #GRACE}.
 *
 * @param command the command line, split on spaces; {@code {dump}} marks the dump's argument
 * @param timeoutSeconds how long one fixture may take
 */
public record ExternalWalker(List<String> command, long timeoutSeconds) {

    /** The most a walker may print for one fixture: 2 GiB. */
    public static final long MAX_OUTPUT_BYTES = 2L << 30;

    /** How long a process asked to stop has before it is killed. */
    static final Duration GRACE = Duration.ofSeconds(2);

    /** The environment variable that marks the processes of one run. */
    static final String MARK = "CLRHEAP_CONFORM_RUN";

    /** How often a running walker's process tree and output size are looked at. */
    private static final long POLL_MILLIS = 20;

    /**
     * What a run left: its exit code (or -1 when killed), whether it timed out, its output file and the end of its
     * stderr; why it was stopped other than by its time ({@code stopped}, or null), and the processes it left running
     * that were ended after it ({@code leftOver}, one line each).
     */
    public record Run(int exitCode, boolean timedOut, Path output, String errorTail, String stopped, List<String> leftOver) {
        public Run(int exitCode, boolean timedOut, Path output, String errorTail) {
            this(exitCode, timedOut, output, errorTail, null, List.of());
        }

        public boolean crashed() {
            return !timedOut && stopped == null && exitCode != 0;
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

    /** Runs the walker on {@code dump}; its output goes to {@code outputFile}. Every process it started has ended when this returns. */
    public Run run(Path dump, Path outputFile) throws IOException, InterruptedException {
        List<String> args = command.stream().map(a -> a.replace("{dump}", dump.toString())).toList();
        Path errors = Files.createTempFile(outputFile.getParent(), "walker", ".err");
        String mark = UUID.randomUUID().toString();
        try {
            Process p;
            try {
                ProcessBuilder builder = new ProcessBuilder(args).redirectOutput(outputFile.toFile()).redirectError(errors.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                builder.environment().put(MARK, mark);
                p = builder.start();
            } catch (IOException e) {
                Files.writeString(outputFile, "");
                return new Run(-1, false, outputFile, "cannot start " + args.get(0) + ": " + e.getMessage());
            }
            Map<Long, ProcessHandle> seen = new LinkedHashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            String stopped = null;
            boolean finished = false;
            try {
                while (true) {
                    p.descendants().forEach(h -> seen.putIfAbsent(h.pid(), h));
                    if (p.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                        finished = true;
                        break;
                    }
                    if (Files.size(outputFile) > MAX_OUTPUT_BYTES) {
                        stopped = String.format(Locale.ROOT, "printed more than %,d bytes (2 GiB); stopped", MAX_OUTPUT_BYTES);
                        break;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        break;
                    }
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                endTree(p, seen, mark);
                throw e;
            }
            // the walker itself (when it still runs), its descendants, and the processes it left behind: all end here
            List<String> leftOver = endTree(p, seen, mark);
            if (finished) {
                return new Run(p.exitValue(), false, outputFile, tail(errors), null, leftOver);
            }
            return new Run(-1, stopped == null, outputFile, tail(errors), stopped, leftOver);
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /**
     * Ends {@code p} and every process of its run: its descendants now, those seen while it ran, and (on Linux) those
     * whose environment has the run's mark. Returns the processes other than {@code p} that were still running, one line each.
     */
    static List<String> endTree(Process p, Map<Long, ProcessHandle> seen, String mark) throws InterruptedException {
        List<String> ended = new ArrayList<>();
        Set<Long> reported = new HashSet<>();
        for (int round = 0; round < 3; round++) {
            Map<Long, ProcessHandle> alive = new LinkedHashMap<>();
            if (p.isAlive()) {
                p.descendants().forEach(h -> alive.putIfAbsent(h.pid(), h));
            }
            seen.values().stream().filter(ProcessHandle::isAlive).forEach(h -> alive.putIfAbsent(h.pid(), h));
            marked(mark).forEach(h -> alive.putIfAbsent(h.pid(), h));
            alive.remove(p.pid());
            if (alive.isEmpty() && !p.isAlive()) {
                break;
            }
            // every round reports what it ends: a process caught in execve shows no environment for a moment, so a
            // later round may be the first to find it by its mark
            alive.values().stream().filter(h -> reported.add(h.pid()))
                    .forEach(h -> ended.add("pid " + h.pid() + h.info().commandLine().map(c -> ": " + WalkerOutput.quote(c, 120)).orElse("")));
            List<ProcessHandle> all = new ArrayList<>(alive.values());
            all.add(p.toHandle());
            all.forEach(ProcessHandle::destroy);
            long deadline = System.nanoTime() + GRACE.toNanos();
            try {
                while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() - deadline < 0) {
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                all.forEach(ProcessHandle::destroyForcibly);
                throw e;
            }
            all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            p.waitFor(10, TimeUnit.SECONDS);
        }
        return ended;
    }

    /** The running processes (other than this JVM) whose environment holds {@code MARK=mark}; none where /proc cannot tell. */
    static List<ProcessHandle> marked(String mark) {
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) {
            return List.of();
        }
        byte[] wanted = (MARK + "=" + mark).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().filter(h -> h.pid() != self).forEach(h -> {
            byte[] env;
            try {
                env = Files.readAllBytes(proc.resolve(Long.toString(h.pid())).resolve("environ"));
            } catch (IOException | SecurityException e) {
                return; // another user's, or gone
            }
            if (holds(env, wanted)) {
                found.add(h);
            }
        });
        return found;
    }

    /** Whether the NUL-separated {@code environ} has the entry {@code wanted}. */
    private static boolean holds(byte[] environ, byte[] wanted) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == wanted.length && Arrays.equals(environ, start, i, wanted, 0, wanted.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
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
