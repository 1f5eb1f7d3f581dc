package io.clrheap.cli.map;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Chromium run headless on a page, the way a test needs it: the DOM after the page's scripts ran, a screenshot, and
 * what the page wrote to the console (Chromium logs it on stderr as {@code INFO:CONSOLE} lines with
 * {@code --enable-logging=stderr}). A run is killed, with its children, after a time limit: the first run as root can
 * be slow, a hung one must not hang the build.
 */
final class HeadlessChromium {

    private static final int SECONDS = 60;

    private final Path binary;
    private final Path profile;

    /** @param profile an empty folder for the browser's profile, so that runs share no state with a user's browser */
    HeadlessChromium(Path binary, Path profile) {
        this.binary = binary;
        this.profile = profile;
    }

    /** What one run printed. */
    record Run(String stdout, String stderr) {

        /** The page's console messages. */
        List<String> console() {
            return stderr.lines().filter(l -> l.contains(":CONSOLE")).toList();
        }
    }

    /** The DOM of {@code page} once its scripts ran (within a virtual-time budget of 10 s). */
    Run dumpDom(URI page) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", page.toString()));
    }

    /** The DOM of {@code page} laid out in a window of {@code width} x {@code height} once its scripts ran. */
    Run dumpDom(URI page, int width, int height) throws IOException, InterruptedException {
        return run(List.of("--window-size=" + width + "," + height, "--dump-dom", page.toString()));
    }

    /** A screenshot of {@code page} in a 1400 x 900 window, written to {@code png}. */
    Run screenshot(URI page, Path png) throws IOException, InterruptedException {
        return screenshot(page, png, 1400, 900);
    }

    /** A screenshot of {@code page} in a window of {@code width} x {@code height} (the page's height: all of it), written to {@code png}. */
    Run screenshot(URI page, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        return run(List.of("--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(), page.toString()));
    }

    private Run run(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + profile.toAbsolutePath(), "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=10000"));
        command.addAll(arguments);
        Path out = Files.createTempFile(profile.getParent(), "chromium", ".out");
        Path err = Files.createTempFile(profile.getParent(), "chromium", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!process.waitFor(SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("Chromium did not finish within " + SECONDS + " s: " + String.join(" ", command) + "\n" + tail(err));
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("Chromium exited with " + process.exitValue() + ": " + String.join(" ", command) + "\n" + tail(err));
        }
        return new Run(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return "stderr, last lines:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
