package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.value.ElementType;
import io.clrheap.value.FieldValueText;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.ArrayLayout;
import io.clrheap.walker.fields.ManagedObject;
import io.clrheap.walker.fields.ObjectFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The values the test program reported for the fields of its own objects ({@code FIELD} lines: read by the runtime's
 * reflection; {@code FIELD-ASSIGNED}: what it assigned, where reflection is trimmed away) against what the walker reads
 * in the same process or its dump: {@link DumpSession#object} and {@link ManagedObject#field}, the value dumpobj prints.
 * A number must be spelled exactly as the program spelled it (a double or float is reported as its bits and compared as
 * {@link FieldValueText}'s spelling of those bits), a reference must hold the labelled object's address, a string field
 * the text the program gave it.
 */
final class SelfReportedFields {

    /** What was compared: how many values the runtime's reflection reported, how many only the program's assignments. */
    record Checked(int reflected, int assigned) {

        int total() {
            return reflected + assigned;
        }
    }

    private final DumpSession session;
    private final ProbeOutput probe;
    /** A struct type's MethodTable by its name, from the boxed copies the program reports (dumpobj shows no field's struct MT). */
    private final Map<String, Long> structs;

    private SelfReportedFields(DumpSession session, ProbeOutput probe) {
        this.session = session;
        this.probe = probe;
        this.structs = Map.of("ProbePoint", probe.object("boxed.point").methodTable(), "ProbeEdge", probe.object("boxed.edge").methodTable());
    }

    /**
     * Asserts that every reported field value is what the walker reads in {@code session}, listing every difference with
     * {@code where} (the build and how it was read), the object and the field.
     */
    static Checked assertMatch(DumpSession session, ProbeOutput probe, String where) {
        SelfReportedFields check = new SelfReportedFields(session, probe);
        List<String> wrong = new ArrayList<>();
        int reflected = 0;
        for (ReportedField f : probe.fields()) {
            check.difference(f).ifPresent(d -> wrong.add(String.format(Locale.ROOT, "%s: %s (%s) field %s: %s", where, f.label(),
                    check.probe.object(f.label()).type(), f.path(), d)));
            reflected += f.reflected() ? 1 : 0;
        }
        assertThat(probe.fields()).as("%s: the program reports field values", where).isNotEmpty();
        assertThat(wrong).as("%s: fields whose walked value differs from what the program reported", where).isEmpty();
        return new Checked(reflected, probe.fields().size() - reflected);
    }

    /** Why the walker's value of {@code f} is not the reported one, or empty when it is. */
    private Optional<String> difference(ReportedField f) {
        ObjectFields.Field walked;
        try {
            walked = field(f);
        } catch (RuntimeException e) {
            return Optional.of("not read: " + e);
        }
        String v = f.value();
        int type = walked.desc().elementType();
        boolean reference = ElementType.isReference(type);
        if (v.equals("null")) {
            return reference && walked.reference() == 0 ? Optional.empty() : Optional.of("reported null, walked " + describe(walked));
        }
        if (v.startsWith("\"")) {
            String text = v.substring(1, v.length() - 1);
            if (!reference || walked.reference() == 0) {
                return Optional.of("reported the string \"" + text + "\", walked " + describe(walked));
            }
            String read = session.object(walked.reference()).map(ManagedObject::asString).orElse("(no object at 0x" + Long.toHexString(walked.reference()) + ")");
            return read.equals(text) ? Optional.empty() : Optional.of("reported the string \"" + text + "\", walked the string \"" + read + "\"");
        }
        String expected;
        if (v.startsWith("r8:")) {
            expected = FieldValueText.of(ElementType.R8, Long.parseUnsignedLong(v.substring(3), 16));
        } else if (v.startsWith("r4:")) {
            expected = FieldValueText.of(ElementType.R4, Long.parseUnsignedLong(v.substring(3), 16));
        } else if (v.matches("-?\\d+")) {
            expected = v;
        } else {
            ReportedObject target;
            try {
                target = probe.object(v);
            } catch (NoSuchElementException e) {
                return Optional.of("the program reported no labelled object but " + v);
            }
            return reference && walked.reference() == target.address() ? Optional.empty()
                    : Optional.of(String.format(Locale.ROOT, "reported %s at 0x%x, walked %s", v, target.address(), describe(walked)));
        }
        return !reference && walked.value().equals(expected) ? Optional.empty()
                : Optional.of("reported " + expected + " (" + v + "), walked " + describe(walked));
    }

    /** The walked field at {@code f}'s path: an object's field, an array element's, then struct fields by name. */
    private ObjectFields.Field field(ReportedField f) {
        ReportedObject reported = probe.object(f.label());
        ManagedObject object = session.object(reported.address())
                .orElseThrow(() -> new NoSuchElementException(String.format(Locale.ROOT, "no object at 0x%x", reported.address())));
        String path = f.path();
        ObjectFields.Field current;
        if (path.startsWith("[")) {
            int close = path.indexOf("].");
            long index = Long.parseLong(path.substring(1, close));
            ArrayLayout array = object.array();
            path = path.substring(close + 2);
            String name = path.split("\\.", 2)[0];
            current = named(session.fields().structFields(array.element(index), array.elementMethodTable()), name, f);
            path = path.substring(name.length());
        } else {
            String name = path.split("\\.", 2)[0];
            current = object.field(name);
            path = path.substring(name.length());
        }
        while (path.startsWith(".")) {
            String name = path.substring(1).split("\\.", 2)[0];
            Long mt = structs.get(current.type());
            if (!current.valueType() || mt == null) {
                throw new IllegalStateException(current.name() + " is walked as " + current.type() + ", not a struct the program reports");
            }
            current = named(session.fields().structFields(current.address(), mt), name, f);
            path = path.substring(1 + name.length());
        }
        return current;
    }

    private static ObjectFields.Field named(List<ObjectFields.Field> fields, String name, ReportedField f) {
        return fields.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> new NoSuchElementException(
                "no field " + name + " on the way to " + f.path() + "; walked: " + fields.stream().map(ObjectFields.Field::name).toList()));
    }

    private static String describe(ObjectFields.Field f) {
        return String.format(Locale.ROOT, "%s %s = %s%s at offset 0x%x", ElementType.name(f.desc().elementType()), f.type(), f.value(),
                f.reference() != 0 ? String.format(Locale.ROOT, " (-> 0x%x)", f.reference()) : "", f.desc().offset());
    }
}
