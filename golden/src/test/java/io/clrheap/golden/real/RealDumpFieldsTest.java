package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.fields.ArrayLayout;
import io.clrheap.value.ElementType;
import io.clrheap.walker.fields.ObjectFields;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Objects' fields read as the runtime laid them out (docs/reference/fields.md), held to the runtime's own list of live
 * objects: every reference field of every listed object is null or the start of a listed object; a string's
 * {@code _stringLength} is the length its size says; a Dictionary's {@code _buckets} is an Int32[] of the list.
 */
class RealDumpFieldsTest {

    static Stream<String> dumps() {
        return Stream.of("net8-svr", "net9-wks", "net9-withheap", "net9-svr", "net10-svr", "net10-compact", "net8-windows-svr", "net10-windows-wks");
    }

    private static DumpSession open(String name) throws Exception {
        Path folder = RealDump.root().resolve(name);
        return Dumps.open(Files.isRegularFile(folder.resolve("core.xz")) ? folder.resolve("core.xz") : folder.resolve("dump.dmp.xz"));
    }

    private static Map<Long, RealDump.LiveObject> live(String name) throws IOException {
        Map<Long, RealDump.LiveObject> live = new HashMap<>();
        for (String line : Files.readAllLines(RealDump.root().resolve(name).resolve("live-objects.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] t = line.split(" ", 4);
            live.put(RealDump.hex(t[0]), new RealDump.LiveObject(RealDump.hex(t[0]), Long.parseLong(t[1]), RealDump.hex(t[2]), t.length > 3 ? t[3] : ""));
        }
        return live;
    }

    @ParameterizedTest
    @MethodSource("dumps")
    void everyReferenceFieldOfEveryListedObjectIsNullOrAListedObject(String name) throws Exception {
        Map<Long, RealDump.LiveObject> live = live(name);
        List<String> wrong = new ArrayList<>();
        long references = 0;
        try (DumpSession session = open(name)) {
            ObjectFields fields = session.fields();
            for (RealDump.LiveObject o : live.values()) {
                if (o.type().endsWith("]") && o.type().contains("[]") || o.type().contains("[,")) {
                    continue; // arrays have no FieldDescs: their elements are not fields
                }
                for (ObjectFields.Field f : fields.instanceFields(o.address(), o.mt())) {
                    assertThat(f.desc().offset() + 8 + f.desc().valueSize()).as("%s %s in 0x%x", o.type(), f.name(), o.address())
                            .isLessThanOrEqualTo(Math.max(o.size(), 24));
                    if (ElementType.isReference(f.desc().elementType())) {
                        references++;
                        long to = f.reference();
                        if (to != 0 && !live.containsKey(to)) {
                            wrong.add(String.format("0x%x %s.%s = 0x%x", o.address(), o.type(), f.name(), to));
                        }
                    }
                }
            }
        }
        assertThat(references).as("%s: reference fields read", name).isGreaterThan(100);
        assertThat(wrong).as("%s: reference fields pointing at no listed object", name).isEmpty();
    }

    /** A reference's slot is named for gcroot and explain: a field, a place inside one, an element, a struct element's field. */
    @org.junit.jupiter.api.Test
    void aSlotIsNamedByTheFieldOrElementHoldingIt() throws Exception {
        try (DumpSession session = open("net8-svr")) {
            ObjectFields fields = session.fields();
            var dictionary = session.object(0x7f929d400220L).orElseThrow();
            var entries = dictionary.readObject("_entries").orElseThrow();
            var count = dictionary.type().field("_count").orElseThrow();
            assertThat(fields.slotName(dictionary.address(), dictionary.methodTable(), 8)).isEqualTo("_buckets");
            assertThat(fields.slotName(dictionary.address(), dictionary.methodTable(), 8 + count.offset() + 2)).isEqualTo("_count+0x2");
            ArrayLayout a = entries.array();
            long key = entries.type().componentType().orElseThrow().field("key").orElseThrow().offset();
            assertThat(fields.slotName(entries.address(), entries.methodTable(), a.element(2) + key - entries.address())).isEqualTo("[2].key");
            var buckets = dictionary.readObject("_buckets").orElseThrow();
            assertThat(fields.slotName(buckets.address(), buckets.methodTable(), buckets.array().element(16) - buckets.address())).isEqualTo("[16]");
            assertThat(fields.slotName(buckets.address(), buckets.methodTable(), buckets.array().element(17) - buckets.address()))
                    .as("past the last element").isEqualTo(String.format("+0x%x", buckets.array().element(17) - buckets.address()));
        }
    }

    /** A type reads as ClrMD's ClrType: name, base type, fields with offsets and types, an array's component type. */
    @org.junit.jupiter.api.Test
    void aManagedTypeGivesItsBaseTypeFieldsAndComponentType() throws Exception {
        try (DumpSession session = open("net8-svr")) {
            var dictionary = session.object(0x7f929d400220L).orElseThrow();
            var type = dictionary.type();
            assertThat(type.name()).startsWith("System.Collections.Generic.Dictionary`2[[System.String");
            assertThat(type.isValueType()).isFalse();
            assertThat(type.isArray()).isFalse();
            assertThat(type.baseType().orElseThrow().name()).isEqualTo("System.Object");
            assertThat(type.baseType().orElseThrow().baseType()).isEmpty();
            var count = type.field("_count").orElseThrow();
            assertThat(count.type()).isEqualTo("System.Int32");
            assertThat(count.isStatic()).isFalse();
            // the field's offset is where dumpobj reads it: the same value through the object
            assertThat(session.memory().readInt(dictionary.address() + 8 + count.offset())).isEqualTo(dictionary.readInt("_count"));
            var entries = dictionary.readObject("_entries").orElseThrow().type();
            assertThat(entries.isArray()).isTrue();
            var entry = entries.componentType().orElseThrow();
            assertThat(entry.isValueType()).isTrue();
            assertThat(entry.fields()).extracting(f -> f.name()).contains("key", "value", "hashCode", "next");
            assertThat(entry.field("key").orElseThrow().type()).isEqualTo("System.String");
            var string = session.type(session.target().globalPointer("g_pStringClass")).orElseThrow();
            assertThat(string.isArray()).isFalse();
            assertThat(string.field("Empty").orElseThrow().isStatic()).isTrue();
            assertThat(session.type(dictionary.address())).as("an object's address is no MethodTable").isEmpty();
        }
    }

    /**
     * A field declared with a class's type parameter ({@code T _value}, {@code TKey key}) is typed with the object's
     * instantiation: a non-null one declared {@code System.String} holds a string, whether the signature said
     * {@code System.String} or {@code !0} of a {@code Dictionary<String, …>} (and one declared {@code System.String[]},
     * as {@code List<String>._items} is, an array of strings); no field of a listed object keeps a bare {@code !0} its
     * class's instantiation names. On the dumps that hold CoreLib's metadata and a {@code List<String>}.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"net8-svr", "net9-withheap", "net10-svr", "net10-compact"})
    void aGenericClasssFieldsAreTypedWithItsInstantiation(String name) throws Exception {
        Map<Long, RealDump.LiveObject> live = live(name);
        List<String> wrong = new ArrayList<>();
        long strings = 0;
        long substituted = 0;
        try (DumpSession session = open(name)) {
            ObjectFields fields = session.fields();
            for (RealDump.LiveObject o : live.values()) {
                if (o.type().endsWith("]") && o.type().contains("[]") || o.type().contains("[,")) {
                    continue;
                }
                boolean generic = o.type().contains("`");
                for (ObjectFields.Field f : fields.instanceFields(o.address(), o.mt())) {
                    if (f.type().matches(".*(^|\\[)!\\d+.*") && generic) {
                        wrong.add(String.format("0x%x %s.%s still typed %s", o.address(), o.type(), f.name(), f.type()));
                    }
                    boolean declaredString = f.type().equals("System.String") || f.type().equals("System.String[]");
                    if (declaredString && f.reference() != 0 && live.containsKey(f.reference())) {
                        strings++;
                        substituted += generic ? 1 : 0;
                        String held = live.get(f.reference()).type();
                        if (!held.equals(f.type())) {
                            wrong.add(String.format("0x%x %s.%s declared %s holds a %s", o.address(), o.type(), f.name(), f.type(), held));
                        }
                    }
                }
            }
        }
        assertThat(strings).as("%s: string fields read", name).isGreaterThan(20);
        assertThat(substituted).as("%s: string fields of generic classes", name).isPositive();
        assertThat(wrong).as(name).isEmpty();
    }

    /**
     * On .NET 9 and 10 the statics are read from each type's DynamicStaticsInfo: every static reference of every listed
     * object's type is null or a listed object (the runtime's own list holds what statics keep), and
     * {@code String.Empty} is an empty string. On .NET 8 no static has a value ({@code -}): its statics are elsewhere.
     */
    @ParameterizedTest
    @MethodSource("dumps")
    void staticReferencesAreNullOrListedObjects(String name) throws Exception {
        Map<Long, RealDump.LiveObject> live = live(name);
        List<String> wrong = new ArrayList<>();
        long read = 0;
        java.util.Set<Long> types = new java.util.HashSet<>();
        try (DumpSession session = open(name)) {
            ObjectFields fields = session.fields();
            boolean located = session.target().layout().findType("DynamicStaticsInfo").isPresent();
            for (RealDump.LiveObject o : live.values()) {
                if (!types.add(o.mt()) || o.type().contains("[")) {
                    continue;
                }
                for (ObjectFields.Field f : fields.staticFields(o.mt())) {
                    if (!located || f.desc().isThreadStatic()) {
                        assertThat(f.address()).as("%s.%s", o.type(), f.name()).isZero();
                        continue;
                    }
                    if (ElementType.isReference(f.desc().elementType()) && f.address() != 0) {
                        read++;
                        if (f.reference() != 0 && !live.containsKey(f.reference())) {
                            wrong.add(String.format("%s.%s = 0x%x", o.type(), f.name(), f.reference()));
                        }
                    }
                }
            }
            long string = session.target().globalPointer("g_pStringClass");
            ObjectFields.Field empty = fields.staticFields(string).getFirst();
            if (located) {
                assertThat(read).as("%s: static references read", name).isGreaterThan(10);
                assertThat(empty.reference()).as("String.Empty").isNotZero();
                assertThat(session.object(empty.reference()).orElseThrow().asString()).isEmpty();
            } else {
                assertThat(empty.value()).isEqualTo("-");
            }
        }
        assertThat(wrong).as("%s: static references pointing at no listed object", name).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("dumps")
    void everyListedArraysSizeIsItsLengthTimesItsComponentAndItsReferencesAreListedObjects(String name) throws Exception {
        Map<Long, RealDump.LiveObject> live = live(name);
        List<String> wrong = new ArrayList<>();
        int arrays = 0;
        try (DumpSession session = open(name)) {
            ObjectFields fields = session.fields();
            long stringMt = session.target().globalPointer("g_pStringClass");
            for (RealDump.LiveObject o : live.values()) {
                long flags = session.memory().readU32(o.mt());
                if ((flags & 0x80000000L) == 0 || o.mt() == stringMt) {
                    continue;
                }
                ArrayLayout a = fields.array(o.address(), o.mt());
                arrays++;
                // the object header (8 bytes before the MethodTable pointer) is counted in an object's size: BaseSize 24 for T[]
                long expected = 8 + a.data() - o.address() + a.length() * a.componentSize();
                if (expected != o.size()) {
                    wrong.add(String.format("0x%x %s: %d elements of %d bytes from +%d, listed size %d", o.address(), o.type(), a.length(),
                            a.componentSize(), a.data() - o.address(), o.size()));
                }
                long product = 1;
                for (long n : a.lengths()) {
                    product *= n;
                }
                if (product != a.length()) {
                    wrong.add(String.format("0x%x %s: dimensions %s multiply to %d, not %d", o.address(), o.type(), java.util.Arrays.toString(a.lengths()),
                            product, a.length()));
                }
                for (long i = 0; a.references() && i < a.length(); i++) {
                    String v = fields.element(a, i);
                    if (!v.equals("null") && !live.containsKey(Long.parseUnsignedLong(v, 16))) {
                        wrong.add(String.format("0x%x %s[%d] = %s: no listed object", o.address(), o.type(), i, v));
                    }
                }
            }
        }
        assertThat(arrays).as("%s: arrays checked", name).isGreaterThan(50);
        assertThat(wrong).as(name).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("dumps")
    void aStringsLengthFieldIsTheLengthItsSizeSaysAndItsTextHasThatLength(String name) throws Exception {
        try (DumpSession session = open(name)) {
            long stringMt = session.target().globalPointer("g_pStringClass");
            int checked = 0;
            for (RealDump.LiveObject o : live(name).values()) {
                if (o.mt() != stringMt) {
                    continue;
                }
                ObjectFields.Field length = session.fields().instanceFields(o.address(), o.mt()).getFirst();
                long chars = Long.parseLong(length.value());
                assertThat(o.size()).as("string 0x%x", o.address()).isEqualTo(22 + 2 * chars);
                if (chars < 1000) {
                    assertThat(session.fields().text(o.address(), 1000)).hasSize((int) chars);
                }
                checked++;
            }
            assertThat(checked).isGreaterThan(200);
        }
    }

    /** The library's typed object (ClrMD's ClrObject): fields by name, typed reads, wrong reads refused saying why. */
    @org.junit.jupiter.api.Test
    void aManagedObjectReadsFieldsByNameAndRefusesWrongReads() throws Exception {
        try (DumpSession session = open("net8-svr")) {
            var dictionary = session.object(0x7f929d400220L).orElseThrow();
            assertThat(dictionary.typeName()).startsWith("System.Collections.Generic.Dictionary`2[[System.String,");
            assertThat(dictionary.size()).isEqualTo(80);
            assertThat(dictionary.readInt("_count")).isEqualTo(15);
            var buckets = dictionary.readObject("_buckets").orElseThrow();
            assertThat(buckets.typeName()).isEqualTo("System.Int32[]");
            assertThat(buckets.array().length()).isEqualTo(17);
            assertThat(dictionary.readObject("_keys")).isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> dictionary.readInt("_buckets")).hasMessageContaining("not a 32-bit integer");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> dictionary.field("_nope")).isInstanceOf(java.util.NoSuchElementException.class)
                    .hasMessageContaining("has no field _nope; its fields: _buckets, _entries");
            assertThat(session.object(0x7f929d400228L)).as("inside the dictionary: no MethodTable there").isEmpty();
            assertThat(session.object(0x7f929cc010d8L).orElseThrow().asString()).isEqualTo("PINVOKE_OVERRIDE");
        }
    }

    /**
     * net9-svr is a trimmed capture of 9.0.1's classic layout: System.Private.CoreLib.dll is a file mapping of its own,
     * which the trim drops, so no type of CoreLib is named; a string is still known by the runtime's g_pStringClass.
     */
    @org.junit.jupiter.api.Test
    void aStringIsReadAsTextWhereTheDumpLacksCoreLibsMetadata() throws Exception {
        long address = 0;
        for (String line : Files.readAllLines(RealDump.root().resolve("net9-svr").resolve("selfreport.txt"))) {
            if (line.startsWith("OBJ label=string.heap ")) {
                address = RealDump.hex(line.replaceFirst(".* addr=(0x[0-9a-f]+) .*", "$1"));
            }
        }
        assertThat(address).as("the program's string.heap in selfreport.txt").isNotZero();
        try (DumpSession session = open("net9-svr")) {
            var string = session.object(address).orElseThrow();
            assertThat(string.typeName()).as("no name from CoreLib's metadata").doesNotContain("System.String");
            assertThat(string.isString()).isTrue();
            // HeapProbe.cs: string.Concat("clrheap ", "heap string")
            assertThat(string.asString()).isEqualTo("clrheap " + "heap string");
        }
    }

    @ParameterizedTest
    @MethodSource("dumps")
    void aDictionarysBucketsFieldIsNamedTypedAndHoldsAnInt32Array(String name) throws Exception {
        Map<Long, RealDump.LiveObject> live = live(name);
        RealDump.LiveObject dictionary = live.values().stream().filter(o -> o.type().startsWith("System.Collections.Generic.Dictionary`2[")
                || o.type().startsWith("Dictionary`2[")).findFirst().orElseThrow();
        try (DumpSession session = open(name)) {
            List<ObjectFields.Field> fields = session.fields().instanceFields(dictionary.address(), dictionary.mt());
            ObjectFields.Field buckets = fields.getFirst();
            assertThat(buckets.desc().offset()).isZero();
            assertThat(live.get(buckets.reference()).type()).isIn("System.Int32[]", "Int32[]");
            if (!buckets.name().startsWith("<field")) {
                assertThat(fields).extracting(ObjectFields.Field::name).startsWith("_buckets", "_entries").contains("_count", "_comparer");
                assertThat(buckets.type()).isEqualTo("System.Int32[]");
            }
        }
    }
}
