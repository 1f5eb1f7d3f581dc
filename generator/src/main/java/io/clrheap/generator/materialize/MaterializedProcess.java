package io.clrheap.generator.materialize;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.walker.source.InProgressFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An emulated process materialized: a helper process (a child JVM running {@link MaterializeHelper}) that holds the
 * emulated memory at its real virtual addresses, with the runtime module mapped from a file named as the runtime's,
 * so that the live walker ({@code walk --pid}), gdb or any tool that reads process memory finds a runtime there.
 *
 * <p>{@link #start} writes the process into a temporary folder ({@link MaterializedImage}), starts the helper on it
 * and returns once the helper says it is ready. The helper's JVM maps its own memory first, and randomly
 * (ASLR): where it has taken an address the emulated process uses, the helper refuses, and another helper is started
 * (up to {@value #ATTEMPTS} in all). The first one runs without address-space randomisation when {@code setarch -R}
 * works here: the JVM's mappings then sit next to the stack and the program, far from the emulated ranges.
 *
 * <p>{@link #close} ends the helper (closes its stdin; SIGTERM, then SIGKILL if it lingers) and removes the folder.
 * Threads: the emulated process's threads are data in its memory (the ThreadStore), which is all the walker reads;
 * /proc/PID/task lists the helper JVM's own threads.
 */
public final class MaterializedProcess implements AutoCloseable {

    public static final int ATTEMPTS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final int KEPT_MESSAGE_CHARS = 64 << 10;
    private static volatile Boolean norandomWorks;

    private final Process helper;
    private final MaterializedImage image;
    private final Drain messages;

    private MaterializedProcess(Process helper, MaterializedImage image, Drain messages) {
        this.helper = helper;
        this.image = image;
        this.messages = messages;
    }

    /**
     * Materializes {@code process} in a new helper process.
     *
     * @param lifetime how long the helper lives at most (it also ends when this object is closed or this JVM exits);
     *                 null for no limit
     */
    public static MaterializedProcess start(EmulatedRuntime process, Duration lifetime) throws IOException, MaterializeException {
        requireJna();
        Path dir = Files.createTempDirectory("clrheap-materialize-");
        // a JVM stopped while the image is written or the helper starts removes it; once started, close() does
        InProgressFiles.register(dir, "materialized image " + dir);
        try {
            return start(MaterializedImage.write(process, dir), lifetime, ATTEMPTS);
        } catch (IOException | MaterializeException | RuntimeException e) {
            MaterializeHelper.deleteTree(dir);
            throw e;
        } finally {
            InProgressFiles.unregister(dir);
        }
    }

    /** Starts helpers on a written image until one is ready or {@code attempts} have refused an address. */
    static MaterializedProcess start(MaterializedImage image, Duration lifetime, int attempts) throws IOException, MaterializeException {
        List<String> refusals = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            boolean norandom = attempt == 1 && norandomWorks();
            Process helper = new ProcessBuilder(command(image.directory(), lifetime, norandom)).start();
            Drain messages = new Drain(helper.getErrorStream());
            String ready = awaitReady(helper);
            if (ready != null) {
                return new MaterializedProcess(helper, image, messages);
            }
            int code = exitCode(helper);
            messages.awaitEnd();
            String said = messages.text().strip();
            if (code == MaterializeHelper.EXIT_ADDRESS_TAKEN) {
                refusals.add(said.replace("clrheap materialize helper: ", ""));
                if (attempt < attempts) {
                    continue;
                }
                throw new MaterializeException(MaterializeException.Kind.ADDRESS_TAKEN, String.format(Locale.ROOT,
                        "%d helper processes refused: %s", attempts, String.join(" | ", refusals)));
            }
            throw new MaterializeException(code == MaterializeHelper.EXIT_NO_JNA ? MaterializeException.Kind.NO_JNA
                    : MaterializeException.Kind.FAILED, said.isEmpty()
                    ? "the helper process ended before it was ready (exit code " + code + ")"
                    : said.replace("clrheap materialize helper: ", "") + " (helper exit code " + code + ")");
        }
    }

    /** The helper's process id: what {@code walk --pid} takes. */
    public long pid() {
        return helper.pid();
    }

    public MaterializedImage image() {
        return image;
    }

    /** What the helper printed on stderr (notes, e.g. a noexec temporary folder); empty normally. */
    public String messages() {
        return messages.text();
    }

    public boolean isAlive() {
        return helper.isAlive();
    }

    /** Completes when the helper ends (its duration passed, or something killed it). */
    public CompletableFuture<Process> onExit() {
        return helper.onExit();
    }

    /** Ends the helper (stdin closed; SIGTERM after 10 s; SIGKILL after 5 more) and removes the temporary folder. */
    @Override
    public void close() {
        try {
            if (helper.isAlive()) {
                try {
                    helper.getOutputStream().close();
                } catch (IOException e) {
                    // the pipe is gone: the helper has seen EOF or is ending
                }
                if (!helper.waitFor(10, TimeUnit.SECONDS)) {
                    helper.destroy();
                    if (!helper.waitFor(5, TimeUnit.SECONDS)) {
                        helper.destroyForcibly();
                        helper.waitFor(5, TimeUnit.SECONDS);
                    }
                }
            }
        } catch (InterruptedException e) {
            helper.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            MaterializeHelper.deleteTree(image.directory());
        }
    }

    /** @throws MaterializeException NO_JNA when JNA's classes or its native library cannot be loaded here */
    static void requireJna() throws MaterializeException {
        try {
            Class.forName("com.sun.jna.Native", true, MaterializedProcess.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new MaterializeException(MaterializeException.Kind.NO_JNA,
                    "JNA is not available (" + e + "): materialize maps memory at fixed addresses through it; the clrheap jar bundles it", e);
        }
    }

    private static List<String> command(Path dir, Duration lifetime, boolean norandom) {
        List<String> cmd = new ArrayList<>();
        if (norandom) {
            cmd.addAll(List.of("setarch", "x86_64", "-R"));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // a small JVM: fewer mappings of its own among the emulated process's
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx64m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:ReservedCodeCacheSize=32m", "-XX:CICompilerCount=1"));
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("jna.")).sorted()
                .forEach(k -> cmd.add("-D" + k + "=" + System.getProperty(k)));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), MaterializeHelper.class.getName(), dir.toString()));
        if (lifetime != null) {
            cmd.addAll(List.of("--for", Long.toString(Math.max(1, lifetime.toMillis()))));
        }
        return cmd;
    }

    /** The helper's READY line, or null when it ended without one. */
    private static String awaitReady(Process helper) throws MaterializeException {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(helper.getInputStream(), StandardCharsets.UTF_8));
                for (String l; (l = out.readLine()) != null; ) {
                    if (l.startsWith(MaterializeHelper.READY + " ")) {
                        return l;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        }, task -> Thread.ofVirtual().name("materialize-ready").start(task));
        try {
            return line.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            helper.destroyForcibly();
            throw new MaterializeException(MaterializeException.Kind.FAILED, "the helper process was not ready after " + READY_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            helper.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new MaterializeException(MaterializeException.Kind.FAILED, "interrupted while the helper process started", e);
        } catch (ExecutionException e) {
            return null;
        }
    }

    private static int exitCode(Process helper) throws MaterializeException {
        try {
            if (!helper.waitFor(30, TimeUnit.SECONDS)) {
                helper.destroyForcibly();
                throw new MaterializeException(MaterializeException.Kind.FAILED, "the helper process closed its output but did not end");
            }
            return helper.exitValue();
        } catch (InterruptedException e) {
            helper.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new MaterializeException(MaterializeException.Kind.FAILED, "interrupted while the helper process ended", e);
        }
    }

    /** Whether {@code setarch x86_64 -R} runs here (it needs the personality syscall, which some containers forbid). */
    private static boolean norandomWorks() {
        Boolean works = norandomWorks;
        if (works == null) {
            works = false;
            String arch = System.getProperty("os.arch");
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                try {
                    Process p = new ProcessBuilder("setarch", "x86_64", "-R", "true").redirectErrorStream(true).start();
                    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                    works = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
                    p.destroyForcibly();
                } catch (IOException e) {
                    works = false; // no setarch
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    works = false;
                }
            }
            norandomWorks = works;
        }
        return works;
    }

    /** Reads a stream to its end on a virtual thread, keeping the first 64 KiB of text. */
    private static final class Drain {
        private final StringBuilder text = new StringBuilder();
        private final Thread thread;

        Drain(InputStream in) {
            thread = Thread.ofVirtual().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        synchronized (text) {
                            if (text.length() < KEPT_MESSAGE_CHARS) {
                                text.append(l).append('\n');
                            }
                        }
                    }
                } catch (IOException e) {
                    // the helper is gone
                }
            });
        }

        String text() {
            synchronized (text) {
                return text.toString();
            }
        }

        void awaitEnd() {
            try {
                thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
