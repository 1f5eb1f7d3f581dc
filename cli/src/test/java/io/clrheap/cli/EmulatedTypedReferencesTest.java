package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.value.ElementType;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.fields.ArrayLayout;
import io.clrheap.walker.fields.ManagedObject;
import io.clrheap.walker.fields.ManagedType;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.heap.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An emulated process holds what a real one would: read by the walker, every non-null reference of a typed field holds
 * an object of its declared type or of a class derived from it (a String field a string), and every element of an
 * array of a declared element type is one; so a reader that reads a field as its declared type finds one.
 */
class EmulatedTypedReferencesTest {

    @TempDir
    Path out;

    /** Whether {@code type} or one of its base classes is named {@code declared}. */
    private static boolean isA(Optional<ManagedType> type, String declared) {
        for (int depth = 0; type.isPresent() && depth < 64; depth++, type = type.get().baseType()) {
            if (type.get().name().equals(declared)) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"net8", "net9", "net10"})
    void everyTypedReferenceHoldsAnObjectOfItsDeclaredType(String runtime) throws Exception {
        Outcome r = run("generate", "--scenario", "fields", "--runtime", runtime, "--gc", "workstation", "--format", "elf", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        List<String> wrong = new ArrayList<>();
        long[] checked = {0, 0};
        try (DumpSession session = Dumps.open(out.resolve("fields-" + runtime + "-workstation.core"))) {
            long free = session.heap().freeMethodTable();
            session.walk((long address, long mt, long size, Region region) -> {
                if (mt == free) {
                    return;
                }
                ManagedObject o = session.object(address).orElseThrow();
                ManagedType type = o.type();
                if (type.isArray()) {
                    String element = type.componentType().map(ManagedType::name).orElse("System.Object");
                    ArrayLayout a = o.array();
                    if (!a.references() || element.equals("System.Object")) {
                        return;
                    }
                    for (long i = 0; i < a.length(); i++) {
                        Optional<ManagedObject> e = o.arrayElement(i);
                        if (e.isPresent()) {
                            checked[1]++;
                            if (!isA(Optional.of(e.get().type()), element)) {
                                wrong.add(String.format("0x%x %s[%d] holds a %s", address, type.name(), i, e.get().typeName()));
                            }
                        }
                    }
                    return;
                }
                for (ObjectFields.Field f : o.fields()) {
                    if (!ElementType.isReference(f.desc().elementType()) || f.reference() == 0 || f.type().equals("System.Object")) {
                        continue;
                    }
                    checked[0]++;
                    if (!isA(session.type(session.memory().readLong(f.reference())), f.type())) {
                        wrong.add(String.format("0x%x %s.%s declared %s holds 0x%x", address, type.name(), f.name(), f.type(), f.reference()));
                    }
                }
            });
        }
        assertThat(checked[0]).as("typed reference fields checked").isGreaterThan(300);
        assertThat(checked[1]).as("typed array elements checked (7 in 8 are null)").isGreaterThan(15);
        assertThat(wrong).isEmpty();
    }
}
