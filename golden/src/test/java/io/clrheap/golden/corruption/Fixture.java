package io.clrheap.golden.corruption;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A golden fixture written to disk (ELF core, bundle, answer key) with what the corruptions need to aim: the answer
 * key's objects and the intact dump's discovery (region descriptors, contexts, structures), through which each
 * corruption finds the address it damages. The damage itself is done to a copy of the file's bytes.
 */
final class Fixture implements AutoCloseable {

    /** One row of objects.tsv. */
    record KeyObject(long address, long mt, long size, String generation, int heap, String kind, String type) {
        /** How far a walk moves past it: max(align8(size), 24). */
        long step() {
            return Math.max((size + 7) & -8L, 24);
        }

        long end() {
            return address + step();
        }
    }

    final String label;
    final Path dir;
    final Path core;
    final Path bundle;
    final Path answer;
    final ElfCore elf;
    final Target target;
    final DiscoveredHeap heap;
    final List<KeyObject> objects;
    private final byte[] coreBytes;

    private Fixture(String label, Path dir, Path core, Path bundle, Path answer) throws IOException, TargetException {
        this.label = label;
        this.dir = dir;
        this.core = core;
        this.bundle = bundle;
        this.answer = answer;
        this.elf = ElfCore.open(core);
        this.target = new TargetOpener(ProfileLoader.builtIn()).open(elf, elf.mappedFiles(), Optional.empty());
        this.heap = new HeapDiscovery(target).discover();
        this.objects = Files.readAllLines(answer.resolve("objects.tsv")).stream().skip(1).map(line -> {
            String[] f = line.split("\t", 7);
            return new KeyObject(Long.decode(f[0]), Long.decode(f[1]), Long.parseLong(f[2]), f[3], Integer.parseInt(f[4]), f[5], f[6]);
        }).toList();
        this.coreBytes = Files.readAllBytes(core);
    }

    static Fixture write(String scenario, RuntimeVersion runtime, GcFlavor gc, Path parent) {
        Scenario s = Scenarios.named(scenario).orElseThrow().on(runtime, gc);
        String label = scenario + " " + runtime.shortName() + " " + gc.id();
        Path dir = parent.resolve(label.replace(' ', '-'));
        try {
            FixtureWriter.write(s, EnumSet.of(FixtureFormat.ELF, FixtureFormat.BUNDLE), dir, ClrheapVersion.current(), FixtureProgress.NONE);
            return new Fixture(label, dir, dir.resolve(s.name() + FixtureFormat.ELF.suffix()), dir.resolve(s.name() + FixtureFormat.BUNDLE.suffix()),
                    dir.resolve(s.name() + ".answer"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TargetException e) {
            throw new IllegalStateException(label + ": the intact fixture does not open: " + e.getMessage(), e);
        }
    }

    boolean server() {
        return heap.gc() == GcFlavor.SERVER;
    }

    long offset(String structure, String field) {
        return target.layout().offset(structure, field);
    }

    long readPointer(long address) {
        return target.memory().readPointer(address);
    }

    /** The first region (by address) of {@code kind} holding at least {@code minObjects} objects and not the ephemeral one. */
    Region region(SegmentKind kind, int minObjects) {
        return heap.regionsByAddress().stream()
                .filter(r -> r.kind() == kind && !r.ephemeral() && objectsIn(r).size() >= minObjects)
                .findFirst().orElseThrow(() -> new IllegalStateException(label + ": no " + kind + " region with " + minObjects + " objects"));
    }

    List<KeyObject> objectsIn(Region r) {
        return objects.stream().filter(o -> r.contains(o.address())).sorted(Comparator.comparing(KeyObject::address, Long::compareUnsigned)).toList();
    }

    /** The object of {@code r} nearest its middle that satisfies {@code which} and is not the region's last. */
    Optional<KeyObject> middle(Region r, Predicate<KeyObject> which) {
        List<KeyObject> in = objectsIn(r);
        int mid = in.size() / 2;
        for (int d = 0; d < in.size(); d++) {
            for (int i : new int[] {mid + d, mid - d}) {
                if (i >= 0 && i < in.size() - 1 && which.test(in.get(i))) {
                    return Optional.of(in.get(i));
                }
            }
        }
        return Optional.empty();
    }

    /** A copy of the core's bytes to damage. */
    Patch patch() {
        return new Patch(coreBytes.clone());
    }

    /**
     * The file offset of {@code address}, found through the core's program headers — read here, not by the reader
     * under test: e_phoff at 32, e_phnum at 56; each Elf64_Phdr p_type@0, p_offset@8, p_vaddr@16, p_filesz@32.
     */
    long fileOffset(long address) {
        ByteBuffer b = ByteBuffer.wrap(coreBytes).order(ByteOrder.LITTLE_ENDIAN);
        long phoff = b.getLong(32);
        int phnum = Short.toUnsignedInt(b.getShort(56));
        for (int i = 0; i < phnum; i++) {
            int at = (int) (phoff + 56L * i);
            long vaddr = b.getLong(at + 16);
            if (b.getInt(at) == 1 && Long.compareUnsigned(address - vaddr, b.getLong(at + 32)) < 0) {
                return b.getLong(at + 8) + (address - vaddr);
            }
        }
        throw new IllegalArgumentException(String.format("%s: 0x%x is in no PT_LOAD", label, address));
    }

    /** The file offset of the program header of the PT_LOAD holding {@code address}. */
    long programHeaderOf(long address) {
        ByteBuffer b = ByteBuffer.wrap(coreBytes).order(ByteOrder.LITTLE_ENDIAN);
        long phoff = b.getLong(32);
        int phnum = Short.toUnsignedInt(b.getShort(56));
        for (int i = 0; i < phnum; i++) {
            int at = (int) (phoff + 56L * i);
            if (b.getInt(at) == 1 && Long.compareUnsigned(address - b.getLong(at + 16), b.getLong(at + 32)) < 0) {
                return at;
            }
        }
        throw new IllegalArgumentException(String.format("%s: 0x%x is in no PT_LOAD", label, address));
    }

    /** Bytes of the core with values written at process addresses (translated to file offsets). */
    final class Patch {
        final byte[] bytes;

        private Patch(byte[] bytes) {
            this.bytes = bytes;
        }

        Patch putLong(long address, long value) {
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(Math.toIntExact(fileOffset(address)), value);
            return this;
        }

        Patch putInt(long address, int value) {
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(Math.toIntExact(fileOffset(address)), value);
            return this;
        }

        Patch putByte(long address, byte value) {
            bytes[Math.toIntExact(fileOffset(address))] = value;
            return this;
        }

        Patch zero(long address, int length) {
            int at = Math.toIntExact(fileOffset(address));
            java.util.Arrays.fill(bytes, at, at + length, (byte) 0);
            return this;
        }

        Path writeTo(Path file) throws IOException {
            return Files.write(file, bytes);
        }
    }

    byte[] coreBytes() {
        return coreBytes.clone();
    }

    @Override
    public void close() {
        elf.close();
    }
}
