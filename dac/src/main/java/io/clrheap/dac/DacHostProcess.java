package io.clrheap.dac;

import io.clrheap.dac.host.CallTraceFile;
import io.clrheap.dac.host.DacHost;
import io.clrheap.dac.host.DacHostJob;
import io.clrheap.dac.host.WireStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkListener;

/**
 * Runs one DAC walk in a child JVM ({@link DacHost}) and hands what the DAC answered to a listener in this process.
 * A DAC that dies (SIGSEGV inside it) takes only the child: the crash comes back as a {@link DacCrashException}
 * naming the DAC call it was in. The child writes no core file and its fatal-error log goes to a temporary folder.
 */
public final class DacHostProcess {

    /**
     * What to walk.
     *
     * @param dac             libmscordaccore.so
     * @param dump            an ELF core (or .xz of one), a fixture bundle, or {@code pid:N} for a running process
     * @param runtimeBase     the runtime module's base in the dump (its file-offset-0 mapping)
     * @param runtimeFileName the runtime module's file name
     * @param job             which walk, or a field listing
     * @param maxObjects      a bound on the DAC heap walker's objects
     * @param timeout         the child is killed after this long
     * @param methodTables    what a field listing lists (empty for a walk)
     * @param imageFolders    where the DAC may find the images of file mappings the dump lacks (MappedImageMemory)
     */
    public record Request(Path dac, Path dump, long runtimeBase, String runtimeFileName, DacHostJob job, long maxObjects, Duration timeout,
                          List<Long> methodTables, List<Path> imageFolders) {
        public Request {
            methodTables = List.copyOf(methodTables);
            imageFolders = List.copyOf(imageFolders);
        }
    }

    private static final Pattern SIGNAL = Pattern.compile("#\\s+(SIG[A-Z]+) \\(0x[0-9a-f]+\\) at pc=(0x[0-9a-f]+)");
    private static final int STDERR_TAIL = 40;

    private DacHostProcess() {
    }

    /** Runs the walk; returns normally only when the child wrote its last record and exited 0. */
    public static void run(Request request, DacWalkListener listener) throws DacException, IOException, InterruptedException {
        Path work = Files.createTempDirectory("clrheap-dac-");
        try {
            Path trace = work.resolve("call.trace");
            Path methodTables = work.resolve("method-tables");
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(methodTables)))) {
                for (long mt : request.methodTables()) {
                    out.writeLong(mt);
                }
            }
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("--enable-native-access=ALL-UNNAMED");
            command.add("-XX:-CreateCoredumpOnCrash"); // a DAC crash must not leave a core of the JVM behind
            command.add("-XX:ErrorFile=" + work.resolve("hs_err.log"));
            command.add("-XX:+DisplayVMOutputToStderr"); // the fatal-error banner must not mix into the records on stdout
            command.add("-XX:+UseSerialGC");
            command.add("-Xss4m");
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(DacHost.class.getName());
            command.add(request.dac().toAbsolutePath().toString());
            command.add(request.dump().getFileName().toString().startsWith(DacHost.PID_PREFIX) ? request.dump().toString()
                    : request.dump().toAbsolutePath().toString());
            command.add(Long.toHexString(request.runtimeBase()));
            command.add(request.runtimeFileName());
            command.add(request.job().name());
            command.add(trace.toString());
            command.add(Long.toString(request.maxObjects()));
            command.add(request.job() == DacHostJob.FIELDS ? methodTables.toString() : "-");
            command.add(request.imageFolders().isEmpty() ? "-" : String.join(java.io.File.pathSeparator,
                    request.imageFolders().stream().map(p -> p.toAbsolutePath().toString()).toList()));
            Process child = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            child.getOutputStream().close();
            Deque<String> stderr = new ArrayDeque<>();
            Thread drain = Thread.ofPlatform().daemon().name("dac-stderr").start(() -> keepTail(child, stderr));
            Thread watchdog = Thread.ofPlatform().daemon().name("dac-watchdog").start(() -> {
                try {
                    if (!child.waitFor(request.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                        child.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    child.destroyForcibly();
                }
            });
            WireStream.Outcome outcome;
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(child.getInputStream(), 1 << 16))) {
                outcome = WireStream.read(in, listener);
            } catch (IOException | RuntimeException e) {
                child.destroyForcibly();
                throw e;
            }
            boolean ended = child.waitFor(request.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                child.destroyForcibly();
            }
            watchdog.interrupt();
            drain.join(2000);
            int exit = ended ? child.exitValue() : -1;
            String tail;
            synchronized (stderr) {
                tail = String.join("\n", stderr);
            }
            if (outcome.complete()) {
                if (outcome.error() != null) {
                    throw new DacException(outcome.error());
                }
                if (exit != 0) {
                    throw new DacException("the DAC process exited with code " + exit + (tail.isBlank() ? "" : ":\n" + tail));
                }
                return;
            }
            String lastCall = CallTraceFile.lastCall(trace).orElse(null);
            String how = !ended ? "killed after " + request.timeout().toSeconds() + " s (timeout)" : describeDeath(work.resolve("hs_err.log"), exit);
            if (outcome.walkDone() && listener instanceof DacHeap heap) {
                // the walk reached us whole; the DAC died naming types (GetMethodTableName reads module metadata)
                heap.namesCrashed("the DAC crashed" + (lastCall == null ? "" : " in " + lastCall) + ": " + how);
                return;
            }
            throw new DacCrashException(lastCall, how, tail.lines().filter(l -> !l.startsWith("#") && !l.startsWith("Could not flush log")).limit(10).reduce((a, b) -> a + "\n" + b).orElse(""));
        } finally {
            deleteTree(work);
        }
    }

    private static void keepTail(Process child, Deque<String> tail) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > STDERR_TAIL) {
                        tail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the child is gone; what was kept is all there is
        }
    }

    /** {@code SIGSEGV at pc=0x... in libmscordaccore.so (exit code 134)}, from the JVM's fatal-error log when there is one. */
    private static String describeDeath(Path errorLog, int exit) {
        String signal = null;
        String frame = null;
        if (Files.isRegularFile(errorLog)) {
            try (Stream<String> lines = Files.lines(errorLog, StandardCharsets.ISO_8859_1)) {
                for (String line : (Iterable<String>) lines.limit(200)::iterator) {
                    Matcher m = SIGNAL.matcher(line);
                    if (signal == null && m.find()) {
                        signal = m.group(1) + " at pc=" + m.group(2);
                    }
                    if (frame == null && line.startsWith("# C  [")) {
                        frame = line.substring(2).trim();
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // the log is a help, not a need
            }
        }
        StringBuilder b = new StringBuilder(signal != null ? signal : exit > 128 ? "killed by signal " + (exit - 128) : "the process ended");
        if (frame != null) {
            b.append(", ").append(frame);
        }
        return b.append(" (exit code ").append(exit).append(')').toString();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a temporary file left behind is not worth failing the walk for
                }
            });
        } catch (IOException e) {
            // as above
        }
    }
}
