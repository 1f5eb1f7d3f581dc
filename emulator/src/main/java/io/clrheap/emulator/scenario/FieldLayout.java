package io.clrheap.emulator.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where the instance fields of a type sit, as the runtime's automatic layout places them for x64 (the runtime's
 * MethodTableBuilder::PlaceInstanceFields, whose algorithm crossgen2 repeats so that precompiled code agrees with it:
 * dotnet/runtime src/coreclr/tools/Common/TypeSystem/Common/MetadataFieldLayoutAlgorithm.cs, ComputeAutoFieldLayout):
 * a class's fields continue from its base class's unaligned instance size; when that is not pointer aligned, smaller
 * fields first fill the gap; then from the largest size down, the references first at pointer size, the other fields
 * in declaration order; structs last, each aligned to at least 8 and taking its size rounded up to 4
 * (GetAlignedNumInstanceFieldBytes). A struct's size is its fields' end rounded up to 8 when over 8 bytes, else to a
 * power of two (ComputeInstanceSize); an empty struct takes 1 byte.
 *
 * <p>Offsets are those of a FieldDesc: from the first byte after the MethodTable pointer for a class or boxed value,
 * from the struct's start when it is stored inline (docs/reference/fields.md section 3). The real dumps agree:
 * {@code Node} {A int, B long, Next, Name} has Next 0, Name 8, B 0x10, A 0x18.
 *
 * <p>Value types are laid out with the same rule: a scenario's structs declare their fields so that sequential layout
 * (what C# gives a struct) and this one agree — references first, then by size descending.
 *
 * @param offsets      per declared field, its offset; -1 for a static
 * @param instanceSize the bytes of instance fields, the base class's included: unaligned for a class, the rounded
 *                     size for a value type
 * @param alignment    a value type's field alignment (8, or the power of two its size was rounded to)
 */
public record FieldLayout(int[] offsets, int instanceSize, int alignment) {

    private static final int POINTER = 8;
    /** log2 of the largest primitive (8 bytes). */
    private static final int MAX_LOG2 = 3;

    /** The layout of {@code type}'s own fields, after its base class's. */
    public static FieldLayout of(TypeDef type) {
        return of(type.shape() == TypeDef.Shape.BOXED, type.parent(), type.fields());
    }

    /** The layout of {@code fields} of a value type or of a class deriving from {@code parent} (null: System.Object). */
    public static FieldLayout of(boolean valueType, TypeDef parent, List<FieldSpec> fields) {
        int start = parent == null ? 0 : of(parent).instanceSize();
        int[] offsets = new int[fields.size()];
        Arrays.fill(offsets, -1);
        List<Integer> references = new ArrayList<>();
        List<List<Integer>> bySize = new ArrayList<>();
        for (int i = 0; i <= MAX_LOG2; i++) {
            bySize.add(new ArrayList<>());
        }
        List<Integer> structs = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            FieldSpec f = fields.get(i);
            if (f.isStatic()) {
                continue;
            }
            if (f.type().reference()) {
                references.add(i);
            } else if (f.type().kind() == FieldType.Kind.STRUCT) {
                structs.add(i);
            } else {
                bySize.get(Integer.numberOfTrailingZeros(f.type().size())).add(i);
            }
        }
        int[] placed = new int[MAX_LOG2 + 1];
        int position = start;
        // a base class ending off pointer alignment: smaller fields fill the gap before a larger one needs alignment
        if (position % POINTER != 0) {
            for (int i = 0; i < MAX_LOG2; i++) {
                if (position % (1 << (i + 1)) == 0) {
                    continue;
                }
                int j;
                for (j = i + 1; j <= MAX_LOG2; j++) {
                    if (placed[j] < bySize.get(j).size() || (j == MAX_LOG2 && !references.isEmpty())) {
                        break;
                    }
                }
                if (j > MAX_LOG2) {
                    break;
                }
                for (j = i; j >= 0; j--) {
                    if (placed[j] < bySize.get(j).size() || (j == MAX_LOG2 && !references.isEmpty())) {
                        break;
                    }
                }
                if (j < 0) {
                    break;
                }
                i = j;
                if (i == MAX_LOG2 && placed[i] >= bySize.get(i).size()) {
                    break;
                }
                int field = bySize.get(i).get(placed[i]++);
                position = align(position, 1 << i);
                offsets[field] = position;
                position += 1 << i;
            }
        }
        for (int i = MAX_LOG2; i >= 0; i--) {
            if (i == MAX_LOG2) {
                for (int field : references) {
                    position = align(position, POINTER);
                    offsets[field] = position;
                    position += POINTER;
                }
            }
            for (int k = placed[i]; k < bySize.get(i).size(); k++) {
                position = align(position, 1 << i);
                offsets[bySize.get(i).get(k)] = position;
                position += 1 << i;
            }
        }
        for (int field : structs) {
            FieldType t = fields.get(field).type();
            position = align(position, Math.max(t.alignment(), POINTER));
            offsets[field] = position;
            position += align(t.size(), 4);
        }
        if (!valueType) {
            return new FieldLayout(offsets, position, POINTER);
        }
        int size = Math.max(position, 1);
        int alignment = 1;
        if (size > POINTER) {
            alignment = POINTER;
        } else {
            while (alignment < size) {
                alignment *= 2;
            }
        }
        return new FieldLayout(offsets, align(size, alignment), alignment);
    }

    /** The BaseSize of an object of a type with this layout: header, MethodTable pointer, fields, 8-aligned; at least 24. */
    public int baseSize() {
        return Math.max(24, align(16 + instanceSize, 8));
    }

    private static int align(int v, int a) {
        return (v + a - 1) & -a;
    }

    @Override
    public int[] offsets() {
        return offsets.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldLayout l && Arrays.equals(offsets, l.offsets) && instanceSize == l.instanceSize && alignment == l.alignment;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsets) * 31 + instanceSize;
    }

    @Override
    public String toString() {
        return "FieldLayout" + Arrays.toString(offsets) + " size " + instanceSize + " align " + alignment;
    }
}
