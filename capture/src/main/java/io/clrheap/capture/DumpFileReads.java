package io.clrheap.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

/**
 * Bounded little-endian reads of the dump a trimmer rewrites: a read that falls outside the file, or is too large to
 * hold, is the trimmer's own error naming the file and the offset; nothing is allocated before the bounds are checked.
 *
 * @param <E> the trimmer's error type
 */
final class DumpFileReads<E extends IOException> {

    private final Path file;
    private final FileChannel channel;
    private final long size;
    private final Function<String, E> error;

    DumpFileReads(Path file, FileChannel channel, Function<String, E> error) throws IOException {
        this.file = file;
        this.channel = channel;
        this.size = channel.size();
        this.error = error;
    }

    long size() {
        return size;
    }

    /** The error for what is wrong at {@code offset}: "FILE at file offset 0x…: what". */
    E bad(long offset, String what) {
        return error.apply(String.format(Locale.ROOT, "%s at file offset 0x%x: %s", file, offset, what));
    }

    /** The {@code length} bytes at {@code offset}; {@code what} names them in an error. */
    ByteBuffer read(long offset, long length, String what) throws IOException {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw bad(offset, what + " (" + length + " bytes) lies outside the file of " + size + " bytes");
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw bad(offset, what + " is " + length + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (channel.read(b, offset + b.position()) < 0) {
                throw bad(offset + b.position(), "unexpected end of file");
            }
        }
        return b.flip();
    }
}
