package io.clrheap.golden.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;

/**
 * What our test program (HeapProbe.cs) printed up to {@code READY}, parsed: the lines {@code PID}, {@code RUNTIME},
 * {@code VERSION}, {@code GC}, {@code GCCONFIG}, {@code HEAPS}, {@code OBJ}, {@code FIELD} and {@code FIELD-ASSIGNED} (see the
 * program's header). The same on every OS:
 * {@link DotnetTestProcess} and {@link WineTestProcess} read it with {@link #await}.
 */
final class ProbeOutput {

    private final List<String> lines;
    private final List<ReportedObject> objects;
    private final List<ReportedField> fields;
    private final Map<String, ReportedObject> byLabel;
    private final Map<String, Integer> generations;
    private final long pid;
    private final int heapCount;
    private final String gc;
    private final String runtimeVersion;
    private final String environmentVersion;

    private ProbeOutput(List<String> output) {
        this.lines = List.copyOf(output);
        List<ReportedObject> list = new ArrayList<>();
        List<ReportedField> reportedFields = new ArrayList<>();
        Map<String, ReportedObject> labels = new LinkedHashMap<>();
        Map<String, Integer> gens = new LinkedHashMap<>();
        long processId = -1;
        int heaps = 0;
        String mode = "unknown";
        String version = "";
        String build = "";
        for (String line : output) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "FIELD", "FIELD-ASSIGNED" -> {
                    String[] v = line.split(" ", 4); // a string's text, the value, may hold spaces
                    if (v.length != 4) {
                        throw new IllegalStateException("bad FIELD line from the test program: " + line);
                    }
                    reportedFields.add(new ReportedField(v[1], v[2], v[3], f[0].equals("FIELD")));
                }
                case "OBJ" -> {
                    if (f.length != 7) {
                        throw new IllegalStateException("bad OBJ line from the test program: " + line);
                    }
                    ReportedObject o = new ReportedObject(f[1], parseHex(f[2]), parseHex(f[3]), Long.parseLong(f[4]), f[5]);
                    list.add(o);
                    labels.put(o.label(), o);
                    gens.put(o.label(), Integer.parseInt(f[6]));
                }
                case "PID" -> processId = Long.parseLong(f[1]);
                case "HEAPS" -> heaps = Integer.parseInt(f[1]);
                case "GC" -> mode = f[1];
                case "RUNTIME" -> version = f[1];
                case "VERSION" -> build = f[1];
                default -> {
                }
            }
        }
        this.objects = Collections.unmodifiableList(list);
        this.fields = List.copyOf(reportedFields);
        this.byLabel = Collections.unmodifiableMap(labels);
        this.generations = Collections.unmodifiableMap(gens);
        this.pid = processId;
        this.heapCount = heaps;
        this.gc = mode;
        this.runtimeVersion = version;
        this.environmentVersion = build;
    }

    /** Parses the program's lines (a bad {@code OBJ} or {@code FIELD} line throws {@link IllegalStateException}). */
    static ProbeOutput parse(List<String> lines) {
        return new ProbeOutput(lines);
    }

    /**
     * What {@link #await} saw: the lines up to {@code READY}, whether {@code READY} came, whether the output ended
     * before it (the process exited or closed its stdout), and the thread that keeps reading.
     */
    record Awaited(boolean ready, boolean ended, List<String> lines, Thread reader) {
    }

    /**
     * Reads {@code process}'s stdout on a virtual thread until {@code READY}, the end of the output, or
     * {@code timeout}. After {@code READY} the thread keeps draining the pipe (nothing the program prints comes after
     * it, but a host may), so the process never blocks on a full pipe.
     */
    static Awaited await(Process process, Duration timeout, String name) {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Object done = new Object();
        boolean[] ready = {false};
        boolean[] ended = {false};
        Thread reader = Thread.ofVirtual().name(name + "-stdout").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (ready[0]) {
                        continue; // nothing comes after READY but the host's own output; keep the pipe drained
                    }
                    lines.add(line);
                    if (line.equals("READY")) {
                        synchronized (done) {
                            ready[0] = true;
                            done.notifyAll();
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            synchronized (done) {
                ended[0] = true;
                done.notifyAll();
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (done) {
            while (!ready[0] && !ended[0]) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(done, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return new Awaited(ready[0], ended[0], List.copyOf(lines), reader);
        }
    }

    /** Every line up to {@code READY}. */
    List<String> lines() {
        return lines;
    }

    /** Every reported object, in the program's order: old ones (gen2, LOH, frozen strings) first, then young ones. */
    List<ReportedObject> objects() {
        return objects;
    }

    /** Every reported field value ({@code FIELD} and {@code FIELD-ASSIGNED} lines), in the program's order. */
    List<ReportedField> fields() {
        return fields;
    }

    /** The reported object labelled {@code label}. */
    ReportedObject object(String label) {
        ReportedObject o = byLabel.get(label);
        if (o == null) {
            throw new NoSuchElementException("the test program reported no object " + label);
        }
        return o;
    }

    /** {@code GC.GetGeneration} of a reported object: 0, 1, 2, 2147483647 for a frozen one, -1 where CoreLib lacks it. */
    int generation(ReportedObject o) {
        return generations.get(o.label());
    }

    /** The {@code PID} line: the process id the program read of itself (getpid, or GetCurrentProcessId on Windows), or -1. */
    long pid() {
        return pid;
    }

    /** The {@code HEAPS} line, or 0 when the program could not tell. */
    int heapCount() {
        return heapCount;
    }

    /** {@code server}, {@code workstation} or {@code unknown}. */
    String gc() {
        return gc;
    }

    /** System.Private.CoreLib's assembly version, e.g. {@code 8.0.0.0}. */
    String runtimeVersion() {
        return runtimeVersion;
    }

    /** {@code Environment.Version}: the runtime's build, e.g. {@code 8.0.30}, or {@code unknown} where CoreLib lacks it. */
    String environmentVersion() {
        return environmentVersion;
    }

    /** The last 4,000 characters of {@code text}, for a failure's message. */
    static String tail(String text) {
        return text.length() <= 4000 ? text : "..." + text.substring(text.length() - 4000);
    }

    private static long parseHex(String text) {
        return Long.parseUnsignedLong(text.startsWith("0x") ? text.substring(2) : text, 16);
    }
}
