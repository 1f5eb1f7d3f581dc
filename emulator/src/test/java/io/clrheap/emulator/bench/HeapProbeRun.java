package io.clrheap.emulator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of {@link BuildHeapProbe} in a child JVM with the given options (a small -Xmx above all), and what it
 * printed. A failed run (an OutOfMemoryError, say) is kept with its reason: it is a result to report, not to hide.
 *
 * @param jvmOptions the child's JVM options
 * @param exitCode   the child's exit code
 * @param values     the {@code key=value} lines it printed
 * @param output     everything it printed, for the reason of a failure
 */
record HeapProbeRun(List<String> jvmOptions, int exitCode, Map<String, String> values, List<String> output) {

    static HeapProbeRun run(String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                BuildHeapProbe.class.getName()));
        System.out.println("heap probe: " + String.join(" ", jvmOptions) + " ...");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        int exit = child.waitFor();
        Map<String, String> values = new HashMap<>();
        for (String line : output) {
            if (line.matches("[A-Za-z]+=.*")) {
                values.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        HeapProbeRun run = new HeapProbeRun(List.of(jvmOptions), exit, Map.copyOf(values), output);
        System.out.println("heap probe: " + (run.succeeded() ? "done" : "failed: " + run.failure()));
        return run;
    }

    boolean succeeded() {
        return exitCode == 0 && values.containsKey("retained");
    }

    long get(String key) {
        return Long.parseLong(values.get(key));
    }

    /** The first line naming an error or exception, else the exit code. */
    String failure() {
        return output.stream().filter(l -> l.contains("Error") || l.contains("Exception")).findFirst()
                .map(l -> l.replaceFirst("^Exception in thread \"main\" ", "").strip()).orElse("exit code " + exitCode);
    }
}
