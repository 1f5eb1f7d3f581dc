package io.clrheap.dac.host;

import io.clrheap.dac.library.CallTrace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The DAC call in progress, kept in a small memory-mapped file: the child process writes each call into it before
 * making it, and the kernel keeps the page when the child dies, so the parent can name the call that crashed.
 * Layout: u32 length of the call's name (UTF-8), the name, u64 argument.
 */
public final class CallTraceFile implements CallTrace {

    static final int SIZE = 4096;
    private static final int MAX_NAME = SIZE - 16;

    private final MappedByteBuffer page;
    /** The last call's name and its bytes: a walk makes the same call millions of times, encoded once. */
    private String lastName;
    private byte[] lastBytes;

    private CallTraceFile(MappedByteBuffer page) {
        this.page = page;
    }

    /** Creates (or truncates) {@code file} for writing by the child. */
    public static CallTraceFile create(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            return new CallTraceFile(channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE));
        }
    }

    @Override
    public void enter(String call, long argument) {
        if (!call.equals(lastName)) {
            lastName = call;
            lastBytes = call.getBytes(StandardCharsets.UTF_8);
        }
        byte[] name = lastBytes;
        int n = Math.min(name.length, MAX_NAME);
        page.putInt(0, 0); // a reader never sees half a name: the length is written last
        page.put(4, name, 0, n);
        page.putLong(4 + n, argument);
        page.putInt(0, n);
    }

    /** The last call a child wrote into {@code file}, e.g. {@code GetObjectData(0x7f12...)}, or empty. */
    public static Optional<String> lastCall(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) < SIZE) {
                return Optional.empty();
            }
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
            int n = b.getInt(0);
            if (n <= 0 || n > MAX_NAME) {
                return Optional.empty();
            }
            String name = new String(b.array(), 4, n, StandardCharsets.UTF_8);
            long argument = b.getLong(4 + n);
            return Optional.of(argument == 0 ? name : String.format("%s(0x%x)", name, argument));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
