package io.clrheap.walker.source.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What {@code /proc/PID} says about a process: its mappings, threads, name and tracer. Source: proc(5). */
final class ProcFiles {

    /** More mappings than this is no process a walker should read (vm.max_map_count defaults to 65,530). */
    static final int MAX_MAPPINGS = 1 << 20;
    /** More threads than this neither (kernel.threads-max is in the hundreds of thousands at most). */
    static final int MAX_THREADS = 1 << 20;

    private ProcFiles() {
    }

    static Path dir(int pid) {
        return Path.of("/proc", Integer.toString(pid));
    }

    static boolean exists(int pid) {
        return pid > 0 && Files.isDirectory(dir(pid));
    }

    /** The mappings in address order, as /proc/PID/maps lists them. */
    static List<Mapping> maps(int pid) {
        Path file = dir(pid).resolve("maps");
        List<Mapping> result = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (result.size() == MAX_MAPPINGS) {
                    throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                            "%s lists more than %,d mappings: not read", file, MAX_MAPPINGS));
                }
                result.add(parseMapsLine(line, file));
            }
        } catch (IOException e) {
            throw unreadable(pid, file, e);
        }
        return result;
    }

    /** {@code start-end perms offset dev inode [path]}; the path may hold spaces. */
    static Mapping parseMapsLine(String line, Path file) {
        String[] f = line.split(" +", 6);
        int dash = f.length < 5 ? -1 : f[0].indexOf('-');
        if (dash < 0 || f[1].length() != 4) {
            throw new IllegalStateException(file + ": not a maps line: " + line);
        }
        long start = Long.parseUnsignedLong(f[0], 0, dash, 16);
        long end = Long.parseUnsignedLong(f[0], dash + 1, f[0].length(), 16);
        long offset = Long.parseUnsignedLong(f[2], 16);
        String path = f.length == 6 ? f[5] : "";
        if (path.endsWith(" (deleted)")) {
            path = path.substring(0, path.length() - " (deleted)".length());
        }
        return new Mapping(start, end, f[1], offset, path);
    }

    /** The thread ids in /proc/PID/task, ascending. */
    static List<Integer> threads(int pid) {
        Path dir = dir(pid).resolve("task");
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
            for (Path t : tasks) {
                if (tids.size() == MAX_THREADS) {
                    throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                            "%s lists more than %,d threads: not read", dir, MAX_THREADS));
                }
                try {
                    tids.add(Integer.parseInt(t.getFileName().toString()));
                } catch (NumberFormatException e) {
                    // not a thread directory
                }
            }
        } catch (IOException e) {
            throw unreadable(pid, dir, e);
        }
        tids.sort(null);
        return tids;
    }

    /** The process's name (/proc/PID/comm), or {@code ?} when it cannot be read. */
    static String command(int pid) {
        try {
            return firstLine(dir(pid).resolve("comm"));
        } catch (IOException e) {
            return "?";
        }
    }

    /** A field of /proc/PID/task/TID/status (e.g. {@code TracerPid}, {@code State}), or null when it cannot be read. */
    static String taskStatus(int pid, int tid, String field) {
        try {
            for (String line : Files.readAllLines(dir(pid).resolve("task").resolve(Integer.toString(tid)).resolve("status"))) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1).strip();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** A field of /proc/PID/status (e.g. {@code PPid}), or null when it cannot be read. */
    static String status(int pid, String field) {
        return taskStatus(pid, pid, field);
    }

    /** /proc/sys/kernel/yama/ptrace_scope, or null without Yama. */
    static String yamaPtraceScope() {
        try {
            return firstLine(Path.of("/proc/sys/kernel/yama/ptrace_scope"));
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The first line of a /proc file, stripped. (Not Files.readString: it trusts the size a file reports, which is 0
     * for /proc files, and /proc/sys files then come back cut short.)
     */
    static String firstLine(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line = in.readLine();
            return line == null ? "" : line.strip();
        }
    }

    static LiveProcessException unreadable(int pid, Path file, IOException e) {
        if (e instanceof NoSuchFileException || !exists(pid)) {
            return new LiveProcessException(LiveProcessException.Kind.NO_SUCH_PROCESS, pid, "no such process: " + pid, e);
        }
        if (e instanceof AccessDeniedException) {
            return new LiveProcessException(LiveProcessException.Kind.PERMISSION_DENIED, pid, "permission denied reading " + file
                    + ": " + LiveProcessException.permissionHint(), e);
        }
        return new LiveProcessException(LiveProcessException.Kind.FAILED, pid, "cannot read " + file + ": " + e.getMessage(), e);
    }
}
