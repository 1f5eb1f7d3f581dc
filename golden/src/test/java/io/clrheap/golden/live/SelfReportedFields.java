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

    /**
     * What was compared: how many values the runtime's reflection reported, how many only the program's assignments,
     * and how many of the fields were found by the token the live process named them with, the dump lacking the
     * program's metadata ({@link #assertMatch(DumpSession, ProbeOutput, String, Names)}).
     */
    record Checked(int reflected, int assigned, int byLiveToken) {

        int total() {
            return reflected + assigned;
        }
    }

    /**
     * The name, token and declared type of each field of the program's types as a session with the program's metadata
     * reads them, by declaring MethodTable and name: a capture whose trim left out the program's assembly image (it
     * keeps no read-only mapping of a file but the runtime module's) lists the same FieldDescs without names.
     */
    record Names(Map<String, Declared> byName) {

        record Declared(int token, String type) {
        }

        private static String key(long enclosingClass, String name) {
            return Long.toHexString(enclosingClass) + ":" + name;
        }

        Optional<Declared> of(long enclosingClass, String name) {
            return Optional.ofNullable(byName.get(key(enclosingClass, name)));
        }

        /** The fields of every object the program reported fields of, as {@code live} names them. */
        static Names read(DumpSession live, ProbeOutput probe) {
            Map<String, Declared> names = new java.util.HashMap<>();
            for (ReportedField f : probe.fields()) {
                objectAt(live, probe.object(f.label())).fields()
                        .forEach(x -> names.put(key(x.desc().enclosingClass(), x.name()), new Declared(x.desc().token(), x.type())));
            }
            for (String box : List.of("boxed.point", "boxed.edge")) {
                objectAt(live, probe.object(box)).fields()
                        .forEach(x -> names.put(key(x.desc().enclosingClass(), x.name()), new Declared(x.desc().token(), x.type())));
            }
            return new Names(Map.copyOf(names));
        }
    }

    private static ManagedObject objectAt(DumpSession session, ReportedObject o) {
        return session.object(o.address()).orElseThrow(() -> new NoSuchElementException(String.format(Locale.ROOT, "no object at 0x%x", o.address())));
    }

    private final DumpSession session;
    private final ProbeOutput probe;
    private final Names names;
    /** Whether the field last looked up was found by a token the live process named. */
    private boolean byToken;
    /** A struct type's MethodTable by its name, from the boxed copies the program reports (dumpobj shows no field's struct MT). */
    private final Map<String, Long> structs;

    private SelfReportedFields(DumpSession session, ProbeOutput probe, Names names) {
        this.session = session;
        this.probe = probe;
        this.names = names;
        this.structs = Map.of("ProbePoint", probe.object("boxed.point").methodTable(), "ProbeEdge", probe.object("boxed.edge").methodTable());
    }

    /**
     * Asserts that every reported field value is what the walker reads in {@code session}, listing every difference with
     * {@code where} (the build and how it was read), the object and the field.
     */
    static Checked assertMatch(DumpSession session, ProbeOutput probe, String where) {
        return assertMatch(session, probe, where, new Names(Map.of()));
    }

    /**
     * As {@link #assertMatch(DumpSession, ProbeOutput, String)}, a field the dump holds without its name (the dump lacks
     * the program's metadata) found by the token {@code names} gives it.
     */
    static Checked assertMatch(DumpSession session, ProbeOutput probe, String where, Names names) {
        SelfReportedFields check = new SelfReportedFields(session, probe, names);
        List<String> wrong = new ArrayList<>();
        int reflected = 0;
        int byLiveToken = 0;
        for (ReportedField f : probe.fields()) {
            check.byToken = false;
            check.difference(f).ifPresent(d -> wrong.add(String.format(Locale.ROOT, "%s: %s (%s) field %s: %s", where, f.label(),
                    check.probe.object(f.label()).type(), f.path(), d)));
            reflected += f.reflected() ? 1 : 0;
            byLiveToken += check.byToken ? 1 : 0;
        }
        assertThat(probe.fields()).as("%s: the program reports field values", where).isNotEmpty();
        assertThat(wrong).as("%s: fields whose walked value differs from what the program reported", where).isEmpty();
        return new Checked(reflected, probe.fields().size() - reflected, byLiveToken);
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
        ManagedObject object = objectAt(session, probe.object(f.label()));
        String path = f.path();
        List<ObjectFields.Field> scope;
        if (path.startsWith("[")) {
            int close = path.indexOf("].");
            long index = Long.parseLong(path.substring(1, close));
            ArrayLayout array = object.array();
            path = path.substring(close + 1);
            scope = session.fields().structFields(array.element(index), array.elementMethodTable());
        } else {
            path = "." + path;
            scope = object.fields();
        }
        ObjectFields.Field current = null;
        while (path.startsWith(".")) {
            String name = path.substring(1).split("\\.", 2)[0];
            if (current != null) {
                String type = type(current);
                Long mt = structs.get(type);
                if (!current.valueType() || mt == null) {
                    throw new IllegalStateException(current.name() + " is walked as " + type + ", not a struct the program reports");
                }
                scope = session.fields().structFields(current.address(), mt);
            }
            current = named(scope, name, f);
            path = path.substring(1 + name.length());
        }
        return current;
    }

    /** The field's declared type: from the dump's metadata, else as the live process named it. */
    private String type(ObjectFields.Field field) {
        return field.name().startsWith("<field ") ? names.byName().values().stream().filter(d -> d.token() == field.desc().token())
                .map(Names.Declared::type).findFirst().orElse(field.type()) : field.type();
    }

    /** The field named {@code name} (the most derived one), or the one whose token the live process gave that name. */
    private ObjectFields.Field named(List<ObjectFields.Field> fields, String name, ReportedField f) {
        for (int i = fields.size() - 1; i >= 0; i--) {
            if (fields.get(i).name().equals(name)) {
                return fields.get(i);
            }
        }
        for (int i = fields.size() - 1; i >= 0; i--) {
            ObjectFields.Field x = fields.get(i);
            if (x.name().startsWith("<field ") && names.of(x.desc().enclosingClass(), name).filter(d -> d.token() == x.desc().token()).isPresent()) {
                byToken = true;
                return x;
            }
        }
        throw new NoSuchElementException("no field " + name + " on the way to " + f.path() + "; walked: " + fields.stream().map(ObjectFields.Field::name).toList());
    }

    private static String describe(ObjectFields.Field f) {
        return String.format(Locale.ROOT, "%s %s = %s%s at offset 0x%x", ElementType.name(f.desc().elementType()), f.type(), f.value(),
                f.reference() != 0 ? String.format(Locale.ROOT, " (-> 0x%x)", f.reference()) : "", f.desc().offset());
    }
}
