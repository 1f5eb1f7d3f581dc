package io.clrheap.generator.answer;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.FieldTruth;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.value.ElementType;
import io.clrheap.value.FieldValueText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * fields.tsv's rows (docs/answer-key.md): for every object, in address order, whose type declares or inherits fields,
 * one row per instance field as the emulator laid it out ({@link FieldTruth}), base classes' first, a struct's fields
 * after it as {@code outer.inner}. The value is read from the bytes the emulator wrote at the field's offset and
 * spelled by {@link FieldValueText}, the code the walker's dumpobj prints values with.
 */
final class FieldRows {

    private FieldRows() {
    }

    static void write(EmulatedRuntime process, Writer out) throws IOException {
        Map<Long, List<FieldTruth>> fields = process.fields();
        if (fields.isEmpty()) {
            return;
        }
        var memory = process.memory();
        try {
            process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
                List<FieldTruth> list = kind == GroundTruth.Kind.OBJECT ? fields.get(mt) : null;
                if (list == null) {
                    return;
                }
                String object = "0x" + Long.toHexString(address);
                StringBuilder lines = new StringBuilder();
                for (FieldTruth f : list) {
                    long at = address + f.offset();
                    String value;
                    if (f.storedType() == ElementType.VALUETYPE) {
                        value = FieldValueText.structAt(at);
                    } else {
                        long bits = switch (ElementType.size(f.storedType())) {
                            case 1 -> memory.readByte(at) & 0xffL;
                            case 2 -> memory.readShort(at) & 0xffffL;
                            case 4 -> memory.readInt(at) & 0xffff_ffffL;
                            default -> memory.readLong(at);
                        };
                        value = FieldValueText.of(f.storedType(), bits);
                    }
                    lines.append(object).append('\t').append(f.name()).append('\t').append(f.declaredType()).append('\t')
                            .append(f.offset()).append('\t').append(value).append('\n');
                }
                try {
                    out.write(lines.toString());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
