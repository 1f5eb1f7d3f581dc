package io.clrheap.walker.source.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process started for a test that is not a child of the test's JVM (the shell that starts it in the background
 * exits at once): the JDK's process reaper must not wait for a process the test traces. Killed by {@link #close()}.
 */
record Detached(long pid, Path output) implements AutoCloseable {

    static Detached start(Path dir, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "detached", ".out");
        List<String> sh = new ArrayList<>(List.of("sh", "-c", "\"$@\" >'" + out + "' 2>&1 </dev/null & echo $!", "sh"));
        sh.addAll(List.of(command));
        Process p = new ProcessBuilder(sh).redirectErrorStream(true).start();
        String line = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("cannot start " + List.of(command) + ": " + line);
        }
        Detached started = new Detached(Long.parseLong(line), out);
        started.awaitExec(Path.of(command[0]).getFileName().toString(), 30);
        return started;
    }

    /**
     * Waits until the background shell has exec'd the command: until then the pid names a copy of {@code sh}, whose
     * mappings vanish under a reader when the exec replaces them (a flaky "not mapped" on a busy machine).
     */
    private void awaitExec(String name, int seconds) throws IOException, InterruptedException {
        String comm = name.length() > 15 ? name.substring(0, 15) : name; // /proc/PID/comm keeps 15 characters: proc(5)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String seen = "";
        while (System.nanoTime() < deadline) {
            try {
                seen = ProcFiles.firstLine(Path.of("/proc/" + pid + "/comm")).strip();
            } catch (IOException gone) {
                throw new IOException("process " + pid + " (" + name + ") exited before the test could read it: "
                        + Files.readString(output), gone);
            }
            if (seen.equals(comm)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new IOException("process " + pid + " is still " + seen + ", not " + name + ", after " + seconds + " s");
    }

    /** The first line the process printed, waited for up to {@code seconds}. */
    String firstLine(int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(output);
            int newline = text.indexOf('\n');
            if (newline >= 0) {
                return text.substring(0, newline);
            }
            Thread.sleep(50);
        }
        throw new IOException("process " + pid + " printed nothing in " + seconds + " s: " + Files.readString(output));
    }

    /** Kills it and waits until it has no memory any more (a zombie or gone). */
    void kill() throws InterruptedException {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        for (int i = 0; i < 200 && !deadOrZombie(); i++) {
            Thread.sleep(25);
        }
    }

    boolean deadOrZombie() {
        try {
            String stat = ProcFiles.firstLine(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
