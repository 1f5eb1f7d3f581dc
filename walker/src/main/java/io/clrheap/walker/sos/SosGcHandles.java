package io.clrheap.walker.sos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SOS's {@code gchandles} (docs/reports.md): the one text both {@code walk --handles} and the answer key's
 * {@code gchandles.txt} are. Only handles that hold an object are listed, as SOS lists them: a row per handle (handle,
 * type in ClrMD's ClrHandleKind spelling, object, its size, the dependent handle's secondary as data, the object's
 * type), then "Statistics:" over the held objects in {@code dumpheap -stat}'s layout, then "Handles:" with a count per
 * type in SOS's order and wording. Rows are in handle address order so that two readers of one heap print the same text.
 */
public final class SosGcHandles {

    /** One handle holding an object; {@code secondary} 0 but for a dependent handle. */
    public record Handle(long handle, RootKind kind, long object, long methodTable, long size, long secondary, String typeName) {

        /** The record's components, the addresses in hex. */
        @Override
        public String toString() {
            return String.format("Handle[handle=0x%x, kind=%s, object=0x%x, methodTable=0x%x, size=%d, secondary=0x%x, typeName=%s]",
                    handle, kind, object, methodTable, size, secondary, typeName);
        }
    }

    /** SOS's order of the "Handles:" summary, with its labels (strike.cpp GCHandles, kept by the managed command). */
    private static final List<RootKind> SUMMARY_ORDER = List.of(RootKind.STRONG, RootKind.PINNED, RootKind.ASYNC_PINNED, RootKind.REFCOUNTED,
            RootKind.WEAK_LONG, RootKind.WEAK_SHORT, RootKind.VARIABLE, RootKind.SIZED_REF, RootKind.DEPENDENT, RootKind.WEAK_NATIVE_COM,
            RootKind.WEAK_INTERIOR_POINTER);

    private final List<Handle> handles;

    public SosGcHandles(List<Handle> handles) {
        List<Handle> sorted = new ArrayList<>(handles);
        sorted.sort(Comparator.comparing(Handle::handle, Long::compareUnsigned));
        this.handles = List.copyOf(sorted);
    }

    public List<Handle> handles() {
        return handles;
    }

    /** The type as ClrMD's ClrHandleKind spells it, which SOS prints in its Type column. */
    public static String typeName(RootKind kind) {
        return switch (kind) {
            case WEAK_SHORT -> "WeakShort";
            case WEAK_LONG -> "WeakLong";
            case STRONG -> "Strong";
            case PINNED -> "Pinned";
            case VARIABLE -> "Variable";
            case REFCOUNTED -> "RefCounted";
            case DEPENDENT -> "Dependent";
            case ASYNC_PINNED -> "AsyncPinned";
            case SIZED_REF -> "SizedRef";
            case WEAK_NATIVE_COM -> "WeakWinRT";
            case WEAK_INTERIOR_POINTER -> "WeakInteriorPointer";
            case FINALIZER, FINALIZABLE, STACK, THREAD_STATIC -> throw new IllegalArgumentException(kind + " is no handle type");
        };
    }

    /** The label of a type's line under "Handles:". */
    static String summaryLabel(RootKind kind) {
        return switch (kind) {
            case STRONG -> "Strong Handles:";
            case PINNED -> "Pinned Handles:";
            case ASYNC_PINNED -> "Async Pinned Handles:";
            case REFCOUNTED -> "Ref Count Handles:";
            case WEAK_LONG -> "Weak Long Handles:";
            case WEAK_SHORT -> "Weak Short Handles:";
            case VARIABLE -> "Variable Handles:";
            case SIZED_REF -> "SizedRef Handles:";
            case DEPENDENT -> "Dependent Handles:";
            case WEAK_NATIVE_COM -> "Weak WinRT Handles:";
            case WEAK_INTERIOR_POINTER -> "Weak Interior Pointer Handles:";
            case FINALIZER, FINALIZABLE, STACK, THREAD_STATIC -> throw new IllegalArgumentException(kind + " is no handle type");
        };
    }

    /** The count per type, in SOS's order, types with no handle left out. */
    public Map<RootKind, Long> counts() {
        Map<RootKind, Long> counts = new EnumMap<>(RootKind.class);
        handles.forEach(h -> counts.merge(h.kind(), 1L, Long::sum));
        Map<RootKind, Long> ordered = new java.util.LinkedHashMap<>();
        SUMMARY_ORDER.forEach(k -> {
            if (counts.containsKey(k)) {
                ordered.put(k, counts.get(k));
            }
        });
        return ordered;
    }

    /** The report's text, every line ending in {@code \n}. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%16s %-11s %16s %8s %16s %s\n", "Handle", "Type", "Object", "Size", "Data", "Type"));
        for (Handle h : handles) {
            out.append(String.format(Locale.ROOT, "%016x %-11s %016x %8d %16s %s\n", h.handle(), typeName(h.kind()), h.object(), h.size(),
                    h.secondary() == 0 ? "" : String.format(Locale.ROOT, "%016x", h.secondary()), h.typeName()));
        }
        out.append('\n');
        DumpHeapStat statistics = new DumpHeapStat();
        Map<Long, String> names = new HashMap<>();
        for (Handle h : handles) {
            statistics.add(h.methodTable(), 1, h.size());
            names.putIfAbsent(h.methodTable(), h.typeName());
        }
        StringWriter stat = new StringWriter();
        try (PrintWriter w = new PrintWriter(stat)) {
            statistics.print(w, TypeNames.of(names), 0);
        }
        out.append(stat.toString().replace(System.lineSeparator(), "\n"));
        out.append('\n');
        out.append("Handles:\n");
        counts().forEach((kind, n) -> out.append(String.format(Locale.ROOT, "    %-22s%d\n", summaryLabel(kind), n)));
        return out.toString();
    }

    /** The same facts as JSON (docs/schemas/gchandles.schema.json). */
    public ObjectNode json() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode list = root.putArray("handles");
        for (Handle h : handles) {
            ObjectNode hj = list.addObject();
            hj.put("handle", hex(h.handle()));
            hj.put("type", typeName(h.kind()));
            hj.put("object", hex(h.object()));
            hj.put("methodTable", hex(h.methodTable()));
            hj.put("size", h.size());
            if (h.secondary() != 0) {
                hj.put("secondary", hex(h.secondary()));
            }
            hj.put("typeName", h.typeName());
        }
        ObjectNode counts = root.putObject("counts");
        counts().forEach((kind, n) -> counts.put(typeName(kind), n));
        root.put("total", handles.size());
        return root;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
