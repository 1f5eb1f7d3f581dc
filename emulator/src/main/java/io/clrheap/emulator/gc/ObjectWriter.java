package io.clrheap.emulator.gc;

import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.types.TypeSystem;

/**
 * Writes objects and free objects at the end of a ground-truth run and records them there: the MethodTable, the
 * length of what has components, a string's characters (reference fields stay null until {@link ReferenceWriter}
 * fills them once the heap is laid out); free objects as the GC makes them (gc.cpp make_unused_array).
 */
final class ObjectWriter {

    /** Some references point at one of these (frozen string literals never move nor die): the first 4,096. */
    private static final int REFERENCE_POOL = 4096;
    /** The largest free object: a length of 2^32 - 8 (the largest 8-aligned 32-bit length) after its 24-byte header. */
    private static final long MAX_FREE_OBJECT = (1L << 32) - 8 + 24;
    /** The text strings are cut from. */
    private static final String TEXT = "The quick brown fox jumps over the lazy dog. Grüße aus Köln, ça va? Ελληνικά γράμματα. "
            + "Русский текст. 日本語のテキスト。 中文字符。 한국어 문장. עברית. العربية. ½ € £ ¥ © ✓ ★ → ∑ ∞. ";
    /** How many different starts in the text a string's characters may have. */
    private static final int TEXT_STARTS = 97;
    /**
     * Text in several scripts over and over as UTF-16LE: the characters of every string, copied in one write from a
     * start that varies with the string's address (so that strings differ). Only characters of the Basic Multilingual
     * Plane: a string cut anywhere holds no half surrogate pair.
     */
    private static final byte[] CHARACTERS = characters(4096 + TEXT_STARTS);

    private final AddressSpace memory;
    private final TypeSystem types;
    private final GroundTruth truth;
    private final long lengthOffset;
    private final long charsOffset;
    private final long freeBaseSize;
    private final int freeType;
    private final int paddingType;
    private final long[] referencePool = new long[REFERENCE_POOL];
    private int referencePoolSize;

    /** Registers the free and padding types with the ground truth, in that order. */
    ObjectWriter(Process process, TypeSystem types) {
        this.memory = process.memory();
        this.types = types;
        this.truth = process.truth();
        this.lengthOffset = process.layout().offset("Array", "m_NumComponents");
        this.charsOffset = process.layout().offset("String", "m_FirstChar");
        this.freeBaseSize = process.layout().constant("free_object.base_size");
        // a free object is an array of bytes after a 24-byte header: size = 24 + length (gc.cpp make_unused_array)
        this.freeType = truth.typeIndex(types.freeMethodTable(), freeBaseSize, 1, GroundTruth.Kind.FREE);
        this.paddingType = truth.typeIndex(types.freeMethodTable(), freeBaseSize, 1, GroundTruth.Kind.PADDING);
    }

    /** A frozen string literal at {@code address}: what reference fields may point at (the first 4,096). */
    void referenceTarget(long address) {
        if (referencePoolSize < REFERENCE_POOL) {
            referencePool[referencePoolSize++] = address;
        }
    }

    /** Writes an object at the end of {@code run} (its header slot before it stays zero), records it, and returns its address. */
    long write(GroundTruth.Run run, TypeSystem.Placed placed, long count, boolean dies) {
        TypeDef spec = placed.def();
        long at = run.end;
        memory.writePointer(at, placed.methodTable());
        if (spec.hasComponents()) {
            memory.writeInt(at + lengthOffset, (int) count);
        }
        switch (spec.shape()) {
            case STRING -> {
                int start = (int) Long.remainderUnsigned(at >>> 3, TEXT_STARTS);
                int chunk = CHARACTERS.length / 2 - TEXT_STARTS;
                for (long c = 0; c < count; c += chunk) {
                    int chars = (int) Math.min(count - c, chunk);
                    memory.write(at + charsOffset + 2 * c, CHARACTERS, 2 * start, 2 * chars);
                }
            }
            default -> {
            }
        }
        truth.append(run, placed.truthType(), count, dies);
        return at;
    }

    private static byte[] characters(int count) {
        StringBuilder text = new StringBuilder(count);
        while (text.length() < count) {
            text.append(TEXT);
        }
        return text.substring(0, count).getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
    }

    /** The frozen string literals references may point at. */
    long[] frozenTargets() {
        return java.util.Arrays.copyOf(referencePool, referencePoolSize);
    }

    /**
     * A free object of {@code size} bytes at the end of {@code run}: the free MethodTable, then a full size_t of
     * size - 24 (gc.cpp make_unused_array). A gap of 4 GiB or more becomes several free objects, each with a length
     * that fits 32 bits, as make_unused_array splits it on 64-bit hosts (docs/reference/walker-semantics.md 1.4).
     */
    void writeFree(GroundTruth.Run run, long size, GroundTruth.Kind kind) {
        long rest = size;
        while (rest > MAX_FREE_OBJECT) {
            long piece = rest - MAX_FREE_OBJECT < freeBaseSize ? MAX_FREE_OBJECT - freeBaseSize : MAX_FREE_OBJECT;
            writeOneFree(run, piece, kind);
            rest -= piece;
        }
        writeOneFree(run, rest, kind);
    }

    private void writeOneFree(GroundTruth.Run run, long size, GroundTruth.Kind kind) {
        long at = run.end;
        memory.writePointer(at, types.freeMethodTable());
        memory.writeLong(at + lengthOffset, size - freeBaseSize);
        truth.append(run, kind == GroundTruth.Kind.PADDING ? paddingType : freeType, size - freeBaseSize, false);
    }
}
