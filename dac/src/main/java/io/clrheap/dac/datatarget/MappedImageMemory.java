package io.clrheap.dac.datatarget;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A dump's memory with the file mappings it lacks read from the mapped files themselves, found by file name in image
 * folders, as a debugger loads a module's image from disk when a dump left it out. A trimmed core keeps a managed
 * assembly's mapping in its {@code NT_FILE} note but not its bytes; the DAC reads a field's signature from the
 * module's metadata there ({@code GetFieldDescData}: {@code MetaSig}), so without the image it fails. What the dump
 * holds always wins; a file only fills the pages the dump lacks. Bytes of the last page past the file's end read as
 * zeros, as mmap gives them. The files stay open for the life of the process (the DAC's host is short-lived).
 */
public final class MappedImageMemory implements Memory {

    private static final long PAGE = 4096;

    /** A mapping the dump lacks, with the file found for it. */
    private record Backing(MappedFile mapping, Path file, long fileSize) {
    }

    private final Memory dump;
    private final TreeMap<Long, Backing> backings = new TreeMap<>(Long::compareUnsigned);
    private final Map<Path, FileChannel> channels = new HashMap<>();

    private MappedImageMemory(Memory dump) {
        this.dump = dump;
    }

    /**
     * {@code dump}, with each of {@code mappings} whose file name is a regular file in one of {@code imageFolders}
     * (the first folder that has it) read from that file where the dump lacks it.
     */
    public static MappedImageMemory of(Memory dump, List<MappedFile> mappings, List<Path> imageFolders) throws IOException {
        MappedImageMemory m = new MappedImageMemory(dump);
        for (MappedFile f : mappings) {
            String name = Path.of(f.path()).getFileName().toString();
            for (Path folder : imageFolders) {
                Path file = folder.resolve(name);
                if (Files.isRegularFile(file)) {
                    m.backings.put(f.start(), new Backing(f, file, Files.size(file)));
                    break;
                }
            }
        }
        return m;
    }

    /** How many mappings a file backs. */
    public int backedMappings() {
        return backings.size();
    }

    private Backing backingOf(long address) {
        var e = backings.floorEntry(address);
        if (e == null) {
            return null;
        }
        MappedFile f = e.getValue().mapping();
        return Long.compareUnsigned(address, f.start()) >= 0 && Long.compareUnsigned(address, f.end()) < 0 ? e.getValue() : null;
    }

    @Override
    public boolean contains(long address, long length) {
        if (dump.contains(address, length)) {
            return true;
        }
        long end = address + length;
        for (long at = address; Long.compareUnsigned(at, end) < 0; ) {
            long next = Math.min((at & -PAGE) + PAGE, end);
            if (!dump.contains(at, next - at) && backingOf(at) == null) {
                return false;
            }
            at = next;
        }
        return true;
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        if (dump.contains(address, length)) {
            dump.read(address, destination, offset, length);
            return;
        }
        int done = 0;
        while (done < length) {
            long at = address + done;
            int n = (int) Math.min((at & -PAGE) + PAGE - at, length - done);
            if (dump.contains(at, n)) {
                dump.read(at, destination, offset + done, n);
            } else {
                readFile(at, destination, offset + done, n);
            }
            done += n;
        }
    }

    private void readFile(long address, byte[] destination, int offset, int length) {
        Backing b = backingOf(address);
        if (b == null) {
            throw new MissingMemoryException(address, length, describe(), MissingMemoryException.Reason.NOT_MAPPED);
        }
        long position = b.mapping().fileOffset() + (address - b.mapping().start());
        ByteBuffer buffer = ByteBuffer.wrap(destination, offset, length);
        try {
            FileChannel channel = channels.get(b.file());
            if (channel == null) {
                channel = FileChannel.open(b.file(), StandardOpenOption.READ);
                channels.put(b.file(), channel);
            }
            while (buffer.hasRemaining() && position < b.fileSize()) {
                int r = channel.read(buffer, position);
                if (r < 0) {
                    break;
                }
                position += r;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + b.file(), e);
        }
        while (buffer.hasRemaining()) {
            buffer.put((byte) 0); // past the file's end, inside its last page
        }
    }

    private ByteBuffer bytes(long address, int length) {
        byte[] b = new byte[length];
        read(address, b, 0, length);
        return ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public byte readByte(long address) {
        return bytes(address, 1).get(0);
    }

    @Override
    public short readShort(long address) {
        return bytes(address, 2).getShort(0);
    }

    @Override
    public int readInt(long address) {
        return bytes(address, 4).getInt(0);
    }

    @Override
    public long readLong(long address) {
        return bytes(address, 8).getLong(0);
    }

    @Override
    public List<MemoryRange> ranges() {
        List<MemoryRange> all = new ArrayList<>(dump.ranges());
        for (Backing b : backings.values()) {
            all.add(new MemoryRange(b.mapping().start(), b.mapping().end() - b.mapping().start()));
        }
        all.sort(null);
        // merged, so that they do not overlap
        List<MemoryRange> merged = new ArrayList<>();
        for (MemoryRange r : all) {
            MemoryRange last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && Long.compareUnsigned(r.start(), last.end()) <= 0) {
                long end = Long.compareUnsigned(r.end(), last.end()) > 0 ? r.end() : last.end();
                merged.set(merged.size() - 1, new MemoryRange(last.start(), end - last.start()));
            } else {
                merged.add(r);
            }
        }
        return merged;
    }

    @Override
    public String describe() {
        return dump.describe() + " with " + backings.size() + " image mappings from files";
    }
}
