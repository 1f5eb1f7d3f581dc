package io.clrheap.walker.runtime.shape;

import static io.clrheap.walker.runtime.shape.DacTableValidation.Status.FAILS;
import static io.clrheap.walker.runtime.shape.DacTableValidation.Status.HOLDS;
import static io.clrheap.walker.runtime.shape.DacTableValidation.Status.UNCHECKED;

import io.clrheap.layout.Certainty;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Which {@code g_dacTable} index holds each entry a DAC-less walk relies on, decided by the shape of what the entry
 * points at: a GcDacVars of major version 2; a ThreadStore whose list walks ThreadCount threads; the free-object,
 * String, Object, Array and Object[] MethodTables by their flags, sizes and parents; the lowest and highest GC
 * addresses by the GC regions and the card table's own record of them; vtables by the objects that start with them.
 * dacvars.h order ({@link DacEntry}) bounds each search and breaks ties; the contract descriptor's pointer globals,
 * where present, must agree.
 *
 * <p>Two uses: {@link #derive} finds the indexes in a table of an unknown build; {@link #validate} checks that a
 * profile's indexes hold their shapes. Every read is bounded (thread lists, heaps and segment chains have caps; no
 * allocation is sized from dump values); memory missing from the dump makes a check fail with its address, never
 * an exception.
 *
 * <p>Long because each of the nineteen entries has a shape of its own, and derivation and validation share them with
 * the anchors one shape takes from another (the thread list, the MethodTables, the GC's range): split apart, every
 * shape would need those anchors passed in.
 */
public final class DacTableShapes {

    /** A thread list longer than this is garbage (no process has 65,536 runtime threads). */
    static final int MAX_THREADS = 1 << 16;
    static final int MAX_HEAPS = 1024;
    static final int MAX_SEGMENTS = 1 << 16;
    /** x64 minimum object size: System.Object's BaseSize. */
    private static final long MIN_OBJECT_SIZE = 24;
    /** gcpriv.h card_table_info: recount, size, next_card_table, lowest_address, highest_address, ... (x64). */
    private static final long CARD_INFO_LOWEST = 0x18;
    private static final long CARD_INFO_HIGHEST = 0x20;
    /** A card covers 256 bytes and a card word holds 32 cards (x64): the card word of address a is a >> 13. */
    private static final int CARD_WORD_SHIFT = 13;
    private static final long PAGE = 4096;
    /** User-space addresses of x64 Linux lie below 2^47. */
    private static final long USER_TOP = 1L << 47;

    /** The order the entries are resolved in: each only after those its shape refers to. */
    private static final List<DacEntry> RESOLUTION_ORDER = List.of(DacEntry.GC_DAC_GLOBALS, DacEntry.THREAD_STORE, DacEntry.HEAP_TYPE,
            DacEntry.FINALIZER_THREAD, DacEntry.SUSPENSION_THREAD, DacEntry.APP_DOMAIN, DacEntry.FREE_OBJECT_METHOD_TABLE,
            DacEntry.STRING_CLASS, DacEntry.OBJECT_CLASS, DacEntry.PREDEFINED_ARRAY_TYPES, DacEntry.ARRAY_CLASS, DacEntry.MODULE_VTABLE,
            DacEntry.LOADED_IMAGE_LAYOUT_VTABLE, DacEntry.LOWEST_ADDRESS, DacEntry.HIGHEST_ADDRESS, DacEntry.CARD_TABLE,
            DacEntry.GC_HEAP, DacEntry.GLOBAL_ALLOC_CONTEXT, DacEntry.SYNC_TABLE);

    private final ShapeInput in;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final Optional<RuntimeBuild> reference;

    // what is known so far (anchors for the shapes that refer to other entries)
    private final Map<DacEntry, Integer> placed = new EnumMap<>(DacEntry.class);
    private List<Long> threads;
    private long gcDacVars;
    private Regions regions;
    private long lowest;
    private long highest;
    private long objectMt;
    private long stringMt;
    private long objectArrayMt;
    private final List<String> checks = new ArrayList<>();

    /**
     * @param in        the memory, module, table and profile
     * @param reference the nearest known build of the same runtime version, whose indexes break ties between entries
     *                  of a weak shape (and whose table {@link DacTableDerivation#driftFrom} compares with); empty when
     *                  none
     */
    public DacTableShapes(ShapeInput in, Optional<RuntimeBuild> reference) {
        this.in = in;
        this.memory = in.memory();
        this.layout = in.layout();
        this.reference = reference;
    }

    /** The entries of the profile's newest build that have a shape here (every entry the walk relies on). */
    public static Set<DacEntry> entriesOf(RuntimeLayout layout) {
        Set<DacEntry> out = EnumSet.noneOf(DacEntry.class);
        for (String name : layout.primaryBuild().dacTable().entries().keySet()) {
            DacEntry.byName(name).ifPresent(out::add);
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ derive

    /** Finds the index of each of {@code wanted} in the table. */
    public DacTableDerivation derive(Collection<DacEntry> wanted) {
        reset();
        Set<DacEntry> want = wanted.isEmpty() ? EnumSet.noneOf(DacEntry.class) : EnumSet.copyOf(wanted);
        Map<DacEntry, EntryFinding> found = new EnumMap<>(DacEntry.class);
        Map<DacEntry, String> unresolved = new EnumMap<>(DacEntry.class);
        boolean rangeDone = false;
        for (DacEntry e : RESOLUTION_ORDER) {
            if (e == DacEntry.LOWEST_ADDRESS || e == DacEntry.HIGHEST_ADDRESS || e == DacEntry.CARD_TABLE) {
                if (!rangeDone) {
                    rangeDone = true;
                    resolveAddressRange(want, found, unresolved);
                }
                continue;
            }
            if (!want.contains(e)) {
                continue;
            }
            resolve(e, found, unresolved);
        }
        List<String> orderProblems = orderProblems(found);
        for (String p : orderProblems) {
            checks.add("order: " + p);
        }
        return new DacTableDerivation(in.dacTableLength(), found, unresolved, checks);
    }

    private void reset() {
        placed.clear();
        threads = null;
        gcDacVars = 0;
        regions = null;
        lowest = 0;
        highest = 0;
        objectMt = 0;
        stringMt = 0;
        objectArrayMt = 0;
        checks.clear();
    }

    private void resolve(DacEntry e, Map<DacEntry, EntryFinding> found, Map<DacEntry, String> unresolved) {
        int lo = lowerBound(e);
        int hi = upperBound(e);
        Map<Integer, Outcome> holding = new LinkedHashMap<>();
        for (int i = lo + 1; i < hi; i++) {
            Outcome o = test(e, i);
            if (o.holds()) {
                holding.put(i, o);
            }
        }
        String between = between(lo, hi);
        OptionalInt fromDescriptor = descriptorIndex(e);
        if (fromDescriptor.isPresent()) {
            int d = fromDescriptor.getAsInt();
            String global = e.descriptorGlobal().orElseThrow();
            Outcome o = test(e, d);
            if (!o.holds()) {
                fail(e, unresolved, String.format("the contract descriptor's %s global is g_dacTable[%d] (0x%x), but there: %s",
                        global, d, slotOrZero(d), o.text()));
            } else if (d <= lo || d >= hi) {
                fail(e, unresolved, String.format("the contract descriptor's %s global is g_dacTable[%d], out of dacvars.h order (%s)",
                        global, d, between));
            } else {
                accept(e, d, Certainty.DUMP, o.text() + String.format("; the contract descriptor's %s global is this entry", global), found);
            }
            return;
        }
        List<Integer> strong = holding.entrySet().stream().filter(x -> x.getValue().strong()).map(Map.Entry::getKey).toList();
        List<Integer> all = List.copyOf(holding.keySet());
        Preferred preferred = preferred(e);
        if (strong.size() == 1) {
            int i = strong.get(0);
            accept(e, i, Certainty.DUMP, holding.get(i).text(), found);
        } else if (strong.size() > 1) {
            if (preferred != null && strong.contains(preferred.index())) {
                int i = preferred.index();
                accept(e, i, Certainty.DUMP, holding.get(i).text() + String.format(" (%s hold%s it too; %s)", list(others(strong, i)),
                        strong.size() == 2 ? "s" : "", preferred.why()), found);
            } else {
                fail(e, unresolved, String.format("ambiguous: indexes %s %s all hold it (%s)", strong, between, holding.get(strong.get(0)).text()));
            }
        } else if (all.size() == 1) {
            int i = all.get(0);
            accept(e, i, Certainty.INFERRED, holding.get(i).text() + String.format("; the only index %s that does", between), found);
        } else if (all.size() > 1) {
            if (preferred != null && all.contains(preferred.index())) {
                int i = preferred.index();
                accept(e, i, Certainty.INFERRED, holding.get(i).text() + String.format("; %s (%s %s hold%s such a value too)",
                        preferred.why(), list(others(all, i)), between, all.size() == 2 ? "s" : ""), found);
            } else {
                fail(e, unresolved, String.format("ambiguous: indexes %s %s all hold such a value and nothing tells them apart", all, between));
            }
        } else {
            String why = preferred != null && preferred.index() > lo && preferred.index() < hi
                    ? String.format("; at %d, where %s: %s", preferred.index(), preferred.why().replaceFirst("^chosen ", "expected "),
                            test(e, preferred.index()).text())
                    : lo + 1 < hi ? String.format("; at %d: %s", lo + 1, test(e, lo + 1).text()) : "";
            fail(e, unresolved, String.format("no index %s holds it%s", between, why));
        }
    }

    /** {@code index 7}, {@code indexes 7, 9}, or {@code 12 other indexes (7, 9, 10, 11, 13, ...)}. */
    private static String list(List<Integer> indexes) {
        if (indexes.size() == 1) {
            return "index " + indexes.get(0);
        }
        String shown = String.join(", ", indexes.stream().limit(5).map(String::valueOf).toList());
        return indexes.size() <= 5 ? "indexes " + shown : indexes.size() + " other indexes (" + shown + ", ...)";
    }

    private static List<Integer> others(List<Integer> all, int chosen) {
        return all.stream().filter(i -> i != chosen).toList();
    }

    private void accept(DacEntry e, int index, Certainty certainty, String evidence, Map<DacEntry, EntryFinding> found) {
        try {
            place(e, index);
        } catch (Mismatch | MissingMemoryException x) {
            // the test held, so the anchor reads the same memory: this is a defect, said as a check
            checks.add(String.format("%s [%d]: its anchor could not be read again: %s", e.dacName(), index, x.getMessage()));
        }
        found.put(e, new EntryFinding(e, index, certainty, evidence));
        checks.add(String.format("%s = g_dacTable[%d] (%s): %s", e.dacName(), index, certainty.id(), evidence));
    }

    private void fail(DacEntry e, Map<DacEntry, String> unresolved, String why) {
        unresolved.put(e, why);
        checks.add(String.format("%s: NOT FOUND: %s", e.dacName(), why));
    }

    private String between(int lo, int hi) {
        return String.format("between %s and %s", lo < 0 ? "the table's start" : nameAt(lo) + " (" + lo + ")",
                hi >= in.dacTableLength() ? "its end (" + in.dacTableLength() + ")" : nameAt(hi) + " (" + hi + ")");
    }

    private String nameAt(int index) {
        for (var e : placed.entrySet()) {
            if (e.getValue() == index) {
                return e.getKey().dacName();
            }
        }
        return "[" + index + "]";
    }

    private int lowerBound(DacEntry e) {
        int lo = -1;
        for (var p : placed.entrySet()) {
            if (p.getKey().ordinal() < e.ordinal()) {
                lo = Math.max(lo, p.getValue());
            }
        }
        return lo;
    }

    private int upperBound(DacEntry e) {
        int hi = in.dacTableLength();
        for (var p : placed.entrySet()) {
            if (p.getKey().ordinal() > e.ordinal()) {
                hi = Math.min(hi, p.getValue());
            }
        }
        return hi;
    }

    /** Where dacvars.h order, or the nearest known build, puts an entry of a weak shape: the tie-breaker. */
    private record Preferred(int index, String why) {
    }

    private Preferred preferred(DacEntry e) {
        Preferred adjacent = switch (e) {
            case HEAP_TYPE -> after(DacEntry.GC_DAC_GLOBALS, -1, "chosen by dacvars.h order: right before g_gcDacGlobals");
            case FINALIZER_THREAD -> after(DacEntry.THREAD_STORE, 1, "chosen by dacvars.h order: right after ThreadStore::s_pThreadStore");
            case SUSPENSION_THREAD -> after(DacEntry.FINALIZER_THREAD, 1, "chosen by dacvars.h order: right after g_pFinalizerThread");
            case APP_DOMAIN -> after(DacEntry.GC_DAC_GLOBALS, 1, "chosen by dacvars.h order: right after g_gcDacGlobals");
            case GLOBAL_ALLOC_CONTEXT -> after(DacEntry.HIGHEST_ADDRESS, 1, "chosen by dacvars.h order: right after g_highest_address");
            case GC_HEAP -> after(DacEntry.HIGHEST_ADDRESS, 2, "chosen by dacvars.h order: g_highest_address, g_global_alloc_context, g_pGCHeap");
            case OBJECT_CLASS -> after(DacEntry.STRING_CLASS, -3, "chosen by dacvars.h order: g_pStringClass - 3");
            case ARRAY_CLASS -> after(DacEntry.OBJECT_CLASS, 4, "chosen by dacvars.h order: g_pObjectClass + 4");
            case PREDEFINED_ARRAY_TYPES -> after(DacEntry.FREE_OBJECT_METHOD_TABLE, 4, "chosen by dacvars.h order: g_pFreeObjectMethodTable + 4");
            default -> null;
        };
        return adjacent != null ? adjacent : fromReference(e);
    }

    private Preferred after(DacEntry anchor, int delta, String why) {
        Integer a = placed.get(anchor);
        return a == null ? null : new Preferred(a + delta, why);
    }

    /** The reference build's index, moved as far as the nearest entry before it that is placed moved. */
    private Preferred fromReference(DacEntry e) {
        if (reference.isEmpty()) {
            return null;
        }
        OptionalInt ref = reference.get().dacTable().indexOf(e.dacName());
        if (ref.isEmpty()) {
            return null;
        }
        DacEntry nearest = null;
        for (var p : placed.entrySet()) {
            if (p.getKey().ordinal() < e.ordinal() && reference.get().dacTable().indexOf(p.getKey().dacName()).isPresent()
                    && (nearest == null || p.getKey().ordinal() > nearest.ordinal())) {
                nearest = p.getKey();
            }
        }
        if (nearest == null) {
            return new Preferred(ref.getAsInt(), "chosen as " + reference.get().version() + " has it");
        }
        int shift = placed.get(nearest) - reference.get().dacTable().indexOf(nearest.dacName()).getAsInt();
        return new Preferred(ref.getAsInt() + shift, String.format("chosen as %s has it %d after %s", reference.get().version(),
                ref.getAsInt() - reference.get().dacTable().indexOf(nearest.dacName()).getAsInt(), nearest.dacName()));
    }

    /** The index whose entry is the variable the contract descriptor's global for {@code e} points at. */
    private OptionalInt descriptorIndex(DacEntry e) {
        if (e.descriptorGlobal().isEmpty()) {
            return OptionalInt.empty();
        }
        Long address = in.descriptorGlobals().get(e.descriptorGlobal().get());
        if (address == null) {
            return OptionalInt.empty();
        }
        long variable = e == DacEntry.PREDEFINED_ARRAY_TYPES ? address - 8 * layout.constant("element_type.object") : address;
        for (int i = 0; i < in.dacTableLength(); i++) {
            if (slotOrZero(i) == variable) {
                return OptionalInt.of(i);
            }
        }
        checks.add(String.format("the contract descriptor's %s global 0x%x is no g_dacTable entry", e.descriptorGlobal().get(), variable));
        return OptionalInt.empty();
    }

    /**
     * g_card_table, g_lowest_address and g_highest_address together: the card table's own record (card_table_info,
     * just before the untranslated table) names the lowest and highest address it covers, and those are the values of
     * two entries after it, with every GC region between them.
     */
    private void resolveAddressRange(Set<DacEntry> want, Map<DacEntry, EntryFinding> found, Map<DacEntry, String> unresolved) {
        List<DacEntry> three = List.of(DacEntry.CARD_TABLE, DacEntry.LOWEST_ADDRESS, DacEntry.HIGHEST_ADDRESS);
        if (three.stream().noneMatch(want::contains)) {
            return;
        }
        int lo = lowerBound(DacEntry.CARD_TABLE);
        int hi = upperBound(DacEntry.HIGHEST_ADDRESS);
        Regions r;
        long infoSize;
        try {
            r = regions();
            infoSize = memory.readLong(gcDacVars + layout.offset("GcDacVars", "card_table_info_size"));
        } catch (Mismatch | MissingMemoryException x) {
            for (DacEntry e : three) {
                if (want.contains(e)) {
                    fail(e, unresolved, "cannot enumerate the GC regions to compare with: " + x.getMessage());
                }
            }
            return;
        }
        List<Integer> lows = new ArrayList<>();
        for (int i = lo + 1; i < hi; i++) {
            if (test(DacEntry.LOWEST_ADDRESS, i).holds()) {
                lows.add(i);
            }
        }
        record Triple(int card, int low, int high, long info) {
        }
        List<Triple> triples = new ArrayList<>();
        for (int k = lo + 1; k < hi; k++) {
            long c;
            try {
                c = memory.readPointer(slot(k));
            } catch (MissingMemoryException x) {
                continue;
            }
            if (c == 0) {
                continue;
            }
            for (int i : lows) {
                if (i <= k) {
                    continue;
                }
                long l = target(i);
                long info = c + ((l >>> CARD_WORD_SHIFT) << 2) - infoSize;
                long h;
                try {
                    if (memory.readLong(info + CARD_INFO_LOWEST) != l) {
                        continue;
                    }
                    h = memory.readLong(info + CARD_INFO_HIGHEST);
                } catch (MissingMemoryException x) {
                    continue;
                }
                for (int j = i + 1; j < hi; j++) {
                    try {
                        if (target(j) == h && test(DacEntry.HIGHEST_ADDRESS, j).holds()) {
                            triples.add(new Triple(k, i, j, info));
                        }
                    } catch (MissingMemoryException x) {
                        // not this one
                    }
                }
            }
        }
        Triple chosen = null;
        String note = "";
        if (triples.size() == 1) {
            chosen = triples.get(0);
        } else if (triples.size() > 1) {
            List<Triple> consecutive = triples.stream().filter(t -> t.low() == t.card() + 1 && t.high() == t.low() + 1).toList();
            if (consecutive.size() == 1) {
                chosen = consecutive.get(0);
                note = String.format(" (%d other index triples fit; chosen by dacvars.h order: three entries in a row)", triples.size() - 1);
            }
        }
        if (chosen == null) {
            String why = triples.isEmpty()
                    ? String.format("no entry %s holds a translated card table whose card_table_info names the lowest and highest address of two "
                            + "later entries, with all %d GC regions between (%d entries hold a page-aligned value at or below them: %s)",
                            between(lo, hi), r.count(), lows.size(), lows)
                    : "ambiguous: these (card, lowest, highest) index triples all fit: " + triples.stream()
                            .map(t -> "(" + t.card() + ", " + t.low() + ", " + t.high() + ")").toList();
            for (DacEntry e : three) {
                if (want.contains(e)) {
                    fail(e, unresolved, why);
                }
            }
            return;
        }
        long l = target(chosen.low());
        long h = target(chosen.high());
        String info = String.format("card_table_info at 0x%x (g_card_table + (lowest >> %d) * 4 - card_table_info_size 0x%x) records lowest 0x%x, highest 0x%x",
                chosen.info(), CARD_WORD_SHIFT, infoSize, l, h);
        Map<DacEntry, String> evidence = Map.of(
                DacEntry.CARD_TABLE, String.format("*0x%x = 0x%x, the translated card table: its %s", slot(chosen.card()), target(chosen.card()), info),
                DacEntry.LOWEST_ADDRESS, test(DacEntry.LOWEST_ADDRESS, chosen.low()).text() + "; the card table's record says the same",
                DacEntry.HIGHEST_ADDRESS, test(DacEntry.HIGHEST_ADDRESS, chosen.high()).text() + "; the card table's record says the same");
        Map<DacEntry, Integer> index = Map.of(DacEntry.CARD_TABLE, chosen.card(), DacEntry.LOWEST_ADDRESS, chosen.low(),
                DacEntry.HIGHEST_ADDRESS, chosen.high());
        for (DacEntry e : List.of(DacEntry.LOWEST_ADDRESS, DacEntry.HIGHEST_ADDRESS, DacEntry.CARD_TABLE)) {
            if (want.contains(e)) {
                accept(e, index.get(e), Certainty.DUMP, evidence.get(e) + note, found);
            } else {
                place(e, index.get(e));
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ validate

    /**
     * Checks that each entry of {@code indexes} (dacvars.h name → index, as a profile's table gives them) holds its shape
     * there, each shape that refers to another entry using the other entry's index from {@code indexes}. Names without a
     * shape here are not checked.
     */
    public DacTableValidation validate(Map<String, Integer> indexes) {
        reset();
        Map<DacEntry, Integer> given = new EnumMap<>(DacEntry.class);
        indexes.forEach((name, index) -> DacEntry.byName(name).ifPresent(e -> given.put(e, index)));
        Map<DacEntry, DacTableValidation.EntryCheck> out = new EnumMap<>(DacEntry.class);
        for (DacEntry e : RESOLUTION_ORDER) {
            Integer i = given.get(e);
            if (i == null) {
                continue;
            }
            if (i < 0 || i >= in.dacTableLength()) {
                out.put(e, new DacTableValidation.EntryCheck(e, i, FAILS, "beyond the table's " + in.dacTableLength() + " entries"));
                continue;
            }
            Outcome o = test(e, i);
            if (!o.holds()) {
                out.put(e, new DacTableValidation.EntryCheck(e, i, o.unanchored() ? UNCHECKED : FAILS, o.text()));
                continue;
            }
            OptionalInt d = descriptorIndex(e);
            if (d.isPresent() && d.getAsInt() != i) {
                out.put(e, new DacTableValidation.EntryCheck(e, i, FAILS, String.format("%s, but the contract descriptor's %s global is g_dacTable[%d]",
                        o.text(), e.descriptorGlobal().orElseThrow(), d.getAsInt())));
                continue;
            }
            try {
                place(e, i);
            } catch (Mismatch | MissingMemoryException x) {
                out.put(e, new DacTableValidation.EntryCheck(e, i, FAILS, x.getMessage()));
                continue;
            }
            out.put(e, new DacTableValidation.EntryCheck(e, i, HOLDS, o.text()));
        }
        // dacvars.h order: an entry placed before one that precedes it does not hold, even when its shape does
        DacEntry previous = null;
        for (DacEntry e : DacEntry.values()) {
            DacTableValidation.EntryCheck c = out.get(e);
            if (c == null) {
                continue;
            }
            if (previous != null && c.holds() && given.get(e) <= given.get(previous)) {
                out.put(e, new DacTableValidation.EntryCheck(e, c.index(), FAILS, String.format("out of dacvars.h order: at %d, not after %s (%d)",
                        c.index(), previous.dacName(), given.get(previous))));
            }
            previous = e;
        }
        return new DacTableValidation(List.copyOf(out.values()));
    }

    private List<String> orderProblems(Map<DacEntry, EntryFinding> found) {
        List<String> problems = new ArrayList<>();
        EntryFinding previous = null;
        for (EntryFinding f : found.values()) {
            if (previous != null && f.index() <= previous.index()) {
                problems.add(String.format("%s (%d) is not after %s (%d)", f.entry().dacName(), f.index(), previous.entry().dacName(), previous.index()));
            }
            previous = f;
        }
        if (problems.isEmpty() && !found.isEmpty()) {
            problems.add(found.size() + " entries in dacvars.h order");
        }
        return problems;
    }

    // ------------------------------------------------------------------------------------------------ shapes

    /** A shape's verdict at one index: holds (strongly: the entry's own shape; weakly: only a plausible value), or why not. */
    record Outcome(boolean holds, boolean strong, boolean unanchored, String text) {
        static Outcome strong(String text) {
            return new Outcome(true, true, false, text);
        }

        static Outcome weak(String text) {
            return new Outcome(true, false, false, text);
        }

        static Outcome no(String text) {
            return new Outcome(false, false, false, text);
        }
    }

    /** A shape that does not hold, with why; thrown inside a test, caught by {@link #test}. */
    private static class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    /** A shape that cannot be tested: it refers to another entry, which is not known. */
    private static final class Unanchored extends Mismatch {
        Unanchored(String message) {
            super(message);
        }
    }

    /** Tests entry {@code e}'s shape at {@code index}. */
    Outcome test(DacEntry e, int index) {
        try {
            return switch (e) {
                case THREAD_STORE -> threadStore(index);
                case FINALIZER_THREAD -> finalizer(index);
                case SUSPENSION_THREAD -> suspension(index);
                case HEAP_TYPE -> heapType(index);
                case GC_DAC_GLOBALS -> gcDacGlobals(index);
                case APP_DOMAIN -> appDomain(index);
                case CARD_TABLE -> cardTable(index);
                case LOWEST_ADDRESS -> lowestAddress(index);
                case HIGHEST_ADDRESS -> highestAddress(index);
                case GLOBAL_ALLOC_CONTEXT -> globalAllocContext(index);
                case GC_HEAP -> gcHeap(index);
                case OBJECT_CLASS -> objectClass(index);
                case STRING_CLASS -> stringClass(index);
                case ARRAY_CLASS -> arrayClass(index);
                case FREE_OBJECT_METHOD_TABLE -> freeObjectMethodTable(index);
                case PREDEFINED_ARRAY_TYPES -> predefinedArrayTypes(index);
                case SYNC_TABLE -> syncTable(index);
                case MODULE_VTABLE -> moduleVtable(index);
                case LOADED_IMAGE_LAYOUT_VTABLE -> loadedImageLayoutVtable(index);
            };
        } catch (Unanchored m) {
            return new Outcome(false, false, true, m.getMessage());
        } catch (Mismatch m) {
            return Outcome.no(m.getMessage());
        } catch (MissingMemoryException m) {
            return Outcome.no("cannot read: " + m.getMessage());
        } catch (io.clrheap.layout.LayoutException m) {
            return Outcome.no("the profile lacks what the shape needs: " + m.getMessage());
        }
    }

    /** Records what an entry found at {@code index} anchors: the thread list, the MethodTables, the GC's range. */
    private void place(DacEntry e, int index) {
        placed.put(e, index);
        switch (e) {
            case THREAD_STORE -> threads = threadList(target(index));
            case GC_DAC_GLOBALS -> gcDacVars = target(index);
            case LOWEST_ADDRESS -> lowest = target(index);
            case HIGHEST_ADDRESS -> highest = target(index);
            case OBJECT_CLASS -> objectMt = target(index);
            case STRING_CLASS -> stringMt = target(index);
            case PREDEFINED_ARRAY_TYPES -> objectArrayMt = memory.readPointer(slot(index) + 8 * layout.constant("element_type.object"));
            default -> {
            }
        }
    }

    private long slot(int index) {
        return memory.readPointer(in.dacTable() + 8L * index);
    }

    private long slotOrZero(int index) {
        try {
            return slot(index);
        } catch (MissingMemoryException e) {
            return 0;
        }
    }

    /** The pointer stored in the variable entry {@code index} points at. */
    private long target(int index) {
        return memory.readPointer(slot(index));
    }

    private static void requirePointer(long p, String what) {
        if (p == 0) {
            throw new Mismatch(what + " is null");
        }
        if (p < PAGE || p >= USER_TOP || (p & 7) != 0) {
            throw new Mismatch(String.format("%s 0x%x is not an aligned user-space pointer", what, p));
        }
    }

    private Outcome threadStore(int i) {
        long v = slot(i);
        long ts = memory.readPointer(v);
        requirePointer(ts, String.format("*0x%x", v));
        long count = memory.readU32(ts + layout.offset("ThreadStore", "ThreadCount"));
        if (count < 1 || count > MAX_THREADS) {
            throw new Mismatch(String.format("*0x%x = 0x%x, whose ThreadCount (+0x%x) is %d", v, ts, layout.offset("ThreadStore", "ThreadCount"), count));
        }
        List<Long> list = threadList(ts);
        return Outcome.strong(String.format("*0x%x = ThreadStore 0x%x: FirstThreadLink (+0x%x) walks ThreadCount = %d threads through Thread.LinkNext (+0x%x) to its end",
                v, ts, layout.offset("ThreadStore", "FirstThreadLink"), list.size(), layout.offset("Thread", "LinkNext")));
    }

    /** The threads of the ThreadStore at {@code ts}: exactly ThreadCount of them, the list ending in null. */
    private List<Long> threadList(long ts) {
        long count = memory.readU32(ts + layout.offset("ThreadStore", "ThreadCount"));
        if (count < 1 || count > MAX_THREADS) {
            throw new Mismatch(String.format("ThreadStore 0x%x counts %d threads", ts, count));
        }
        long linkNext = layout.offset("Thread", "LinkNext");
        List<Long> list = new ArrayList<>();
        long link = memory.readPointer(ts + layout.offset("ThreadStore", "FirstThreadLink"));
        while (link != 0) {
            if (list.size() >= count) {
                throw new Mismatch(String.format("the thread list of 0x%x goes on past ThreadCount = %d (at link 0x%x)", ts, count, link));
            }
            requirePointer(link, "a thread link");
            list.add(link - linkNext);
            link = memory.readPointer(link);
        }
        if (list.size() != count) {
            throw new Mismatch(String.format("the thread list of 0x%x ends after %d threads, but ThreadCount is %d", ts, list.size(), count));
        }
        return list;
    }

    private List<Long> threads(DacEntry who) {
        if (threads == null) {
            throw new Unanchored(who.dacName() + "'s shape needs ThreadStore::s_pThreadStore's thread list, which is not known");
        }
        return threads;
    }

    private Outcome finalizer(int i) {
        long v = slot(i);
        long t = memory.readPointer(v);
        int k = threads(DacEntry.FINALIZER_THREAD).indexOf(t);
        if (t == 0 || k < 0) {
            throw new Mismatch(String.format("*0x%x = 0x%x, none of the ThreadStore's %d threads", v, t, threads.size()));
        }
        return Outcome.strong(String.format("*0x%x = Thread 0x%x, thread %d of the ThreadStore's %d", v, t, k + 1, threads.size()));
    }

    private Outcome suspension(int i) {
        long v = slot(i);
        long t = memory.readPointer(v);
        if (t == 0) {
            return Outcome.weak(String.format("*0x%x = 0: no thread is suspending the runtime", v));
        }
        int k = threads(DacEntry.SUSPENSION_THREAD).indexOf(t);
        if (k < 0) {
            throw new Mismatch(String.format("*0x%x = 0x%x, neither null nor one of the ThreadStore's %d threads", v, t, threads.size()));
        }
        return Outcome.strong(String.format("*0x%x = Thread 0x%x, thread %d of the ThreadStore's %d (suspending the runtime)", v, t, k + 1, threads.size()));
    }

    private Outcome heapType(int i) {
        long v = slot(i);
        long type = memory.readU32(v);
        if (type != 1 && type != 2) {
            throw new Mismatch(String.format("u32 at 0x%x is %d, not 1 (workstation) or 2 (server)", v, type));
        }
        if (gcDacVars == 0) {
            return Outcome.weak(String.format("u32 at 0x%x = %d (%s)", v, type, type == 2 ? "server" : "workstation"));
        }
        long nHeaps = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "n_heaps"));
        if ((type == 2) != (nHeaps != 0)) {
            throw new Mismatch(String.format("u32 at 0x%x = %d, but GcDacVars.n_heaps is %s", v, type, nHeaps == 0 ? "null" : "set"));
        }
        return Outcome.strong(String.format("u32 at 0x%x = %d (%s GC), as GcDacVars.n_heaps is %s", v, type, type == 2 ? "server" : "workstation",
                nHeaps == 0 ? "null" : "set"));
    }

    private Outcome gcDacGlobals(int i) {
        long v = slot(i);
        long g = memory.readPointer(v);
        requirePointer(g, String.format("*0x%x", v));
        int major = memory.readU8(g + layout.offset("GcDacVars", "major_version_number"));
        int minor = memory.readU8(g + layout.offset("GcDacVars", "minor_version_number"));
        long size = memory.readLong(g + layout.offset("GcDacVars", "generation_size"));
        long count = memory.readLong(g + layout.offset("GcDacVars", "total_generation_count"));
        if (major != layout.constant("gc_dac_vars.major_version") || minor > 32 || size < 64 || size > 4096 || size % 8 != 0 || count < 3 || count > 8) {
            throw new Mismatch(String.format("*0x%x = 0x%x: version %d.%d, generation_size %d, %d generations (a GcDacVars has major %d, a "
                    + "generation size of 64-4096 bytes and 3-8 generations)", v, g, major, minor, size, count, layout.constant("gc_dac_vars.major_version")));
        }
        long offsets = memory.readPointer(g + layout.offset("GcDacVars", "generation_field_offsets"));
        requirePointer(offsets & ~7L, "GcDacVars.generation_field_offsets");
        int allocation = memory.readInt(offsets);
        int start = memory.readInt(offsets + 4);
        if (allocation < 0 || start < 0 || allocation >= size || start >= size) {
            throw new Mismatch(String.format("GcDacVars 0x%x's generation_field_offsets (0x%x) are %d, %d: not inside a %d-byte generation",
                    g, offsets, allocation, start, size));
        }
        return Outcome.strong(String.format("*0x%x = GcDacVars 0x%x: version %d.%d, generation_size %d, %d generations, generation_field_offsets %d, %d",
                v, g, major, minor, size, count, allocation, start));
    }

    private Outcome appDomain(int i) {
        long v = slot(i);
        long ad = memory.readPointer(v);
        requirePointer(ad, String.format("*0x%x", v));
        long first = memory.readPointer(ad);
        String vtable = in.inModule(first) ? String.format(", whose first word 0x%x (a vtable) is in %s", first, in.moduleName()) : "";
        Optional<Long> domainField = layout.findType("Thread").flatMap(t -> t.findField("m_pDomain")).map(f -> f.offset());
        if (domainField.isPresent() && threads != null) {
            int same = 0;
            for (long t : threads) {
                if (memory.readPointer(t + domainField.get()) == ad) {
                    same++;
                }
            }
            if (same == 0) {
                throw new Mismatch(String.format("*0x%x = 0x%x, the m_pDomain (+0x%x) of none of the %d threads", v, ad, domainField.get(), threads.size()));
            }
            return Outcome.strong(String.format("*0x%x = AppDomain 0x%x, the m_pDomain (Thread+0x%x) of %d of the %d threads%s",
                    v, ad, domainField.get(), same, threads.size(), vtable));
        }
        return Outcome.weak(String.format("*0x%x = 0x%x, a readable pointer%s", v, ad, vtable));
    }

    /** Every GC region's range (frozen segments aside), from GcDacVars: workstation's generation table or each server heap's. */
    record Regions(int count, long first, long last) {
    }

    private Regions regions() {
        if (regions != null) {
            return regions;
        }
        if (gcDacVars == 0) {
            throw new Unanchored("the GC regions are read through g_gcDacGlobals, which is not known");
        }
        long g = gcDacVars;
        long size = memory.readLong(g + layout.offset("GcDacVars", "generation_size"));
        long count = memory.readLong(g + layout.offset("GcDacVars", "total_generation_count"));
        long offsets = memory.readPointer(g + layout.offset("GcDacVars", "generation_field_offsets"));
        int startSegment = memory.readInt(offsets + 4);
        List<Long> tables = new ArrayList<>();
        long nHeaps = memory.readPointer(g + layout.offset("GcDacVars", "n_heaps"));
        if (nHeaps != 0) {
            int n = memory.readInt(nHeaps);
            if (n < 1 || n > MAX_HEAPS) {
                throw new Mismatch(String.format("GcDacVars 0x%x: *n_heaps = %d", g, n));
            }
            long heaps = memory.readPointer(memory.readPointer(g + layout.offset("GcDacVars", "g_heaps")));
            long fieldOffsets = memory.readPointer(g + layout.offset("GcDacVars", "gc_heap_field_offsets"));
            int generationTable = layout.dacFieldOrder().getOrDefault("gc_heap", List.of()).indexOf("generation_table");
            if (generationTable < 0) {
                throw new Mismatch("the profile's dacFieldOrder.gc_heap lacks generation_table");
            }
            int tableOffset = memory.readInt(fieldOffsets + 4L * generationTable);
            for (int h = 0; h < n; h++) {
                tables.add(memory.readPointer(heaps + 8L * h) + tableOffset);
            }
        } else {
            tables.add(memory.readPointer(g + layout.offset("GcDacVars", "generation_table")));
        }
        long memOff = layout.offset("heap_segment", "mem");
        long reservedOff = layout.offset("heap_segment", "reserved");
        long nextOff = layout.offset("heap_segment", "next");
        long flagsOff = layout.offset("heap_segment", "flags");
        long readonly = layout.constant("heap_segment.flags.readonly");
        int seen = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        for (long table : tables) {
            for (int gen = 0; gen < count; gen++) {
                long seg = memory.readPointer(table + gen * size + startSegment);
                while (seg != 0) {
                    if (++seen > MAX_SEGMENTS) {
                        throw new Mismatch("more than " + MAX_SEGMENTS + " heap segments: a chain loops");
                    }
                    if ((memory.readLong(seg + flagsOff) & readonly) == 0) {
                        first = Math.min(first, memory.readPointer(seg + memOff));
                        last = Math.max(last, memory.readPointer(seg + reservedOff));
                    }
                    seg = memory.readPointer(seg + nextOff);
                }
            }
        }
        if (last == 0) {
            throw new Mismatch("GcDacVars 0x" + Long.toHexString(g) + " lists no GC region");
        }
        regions = new Regions(seen, first, last);
        return regions;
    }

    private Outcome lowestAddress(int i) {
        long v = slot(i);
        long l = memory.readPointer(v);
        Regions r = regions();
        if (l == 0 || l % PAGE != 0 || l < PAGE || l >= USER_TOP || l > r.first()) {
            throw new Mismatch(String.format("*0x%x = 0x%x, not a page-aligned address at or below the first GC region (0x%x)", v, l, r.first()));
        }
        return Outcome.strong(String.format("*0x%x = 0x%x: page-aligned, at or below all %d GC regions (the first at 0x%x)", v, l, r.count(), r.first()));
    }

    private Outcome highestAddress(int i) {
        long v = slot(i);
        long h = memory.readPointer(v);
        Regions r = regions();
        if (h % PAGE != 0 || h >= USER_TOP || h < r.last() || (lowest != 0 && h <= lowest)) {
            throw new Mismatch(String.format("*0x%x = 0x%x, not a page-aligned address at or above the end of the last GC region (0x%x)%s",
                    v, h, r.last(), lowest != 0 ? String.format(" and above g_lowest_address 0x%x", lowest) : ""));
        }
        return Outcome.strong(String.format("*0x%x = 0x%x: page-aligned, at or above the end of all %d GC regions (the last ends at 0x%x)", v, h, r.count(), r.last()));
    }

    private Outcome cardTable(int i) {
        if (lowest == 0 || highest == 0) {
            throw new Unanchored("g_card_table's shape needs g_lowest_address and g_highest_address, which are not known");
        }
        long v = slot(i);
        long c = memory.readPointer(v);
        long infoSize = memory.readLong(gcDacVars + layout.offset("GcDacVars", "card_table_info_size"));
        long info = c + ((lowest >>> CARD_WORD_SHIFT) << 2) - infoSize;
        long l = memory.readLong(info + CARD_INFO_LOWEST);
        long h = memory.readLong(info + CARD_INFO_HIGHEST);
        if (l != lowest || h != highest) {
            throw new Mismatch(String.format("*0x%x = 0x%x: as a translated card table its card_table_info (0x%x) would record 0x%x-0x%x, not g_lowest_address "
                    + "0x%x and g_highest_address 0x%x", v, c, info, l, h, lowest, highest));
        }
        return Outcome.strong(String.format("*0x%x = 0x%x, the translated card table: its card_table_info at 0x%x records lowest 0x%x, highest 0x%x",
                v, c, info, l, h));
    }

    private Outcome globalAllocContext(int i) {
        long v = slot(i);
        long context = v;
        String kind = "gc_alloc_context";
        if (layout.findType("ee_alloc_context").isPresent()) {
            context = v + layout.offset("ee_alloc_context", "m_GCAllocContext");
            kind = "ee_alloc_context";
        }
        long ptr = memory.readPointer(context + layout.offset("gc_alloc_context", "alloc_ptr"));
        long limit = memory.readPointer(context + layout.offset("gc_alloc_context", "alloc_limit"));
        if (ptr == 0 && limit == 0) {
            return Outcome.weak(String.format("0x%x: an empty %s (alloc_ptr and alloc_limit 0)", v, kind));
        }
        if (Long.compareUnsigned(ptr, limit) > 0 || (lowest != 0 && (ptr < lowest || limit > highest))) {
            throw new Mismatch(String.format("0x%x as a %s: [0x%x, 0x%x) is no allocation window in the GC's range", v, kind, ptr, limit));
        }
        return Outcome.weak(String.format("0x%x: a %s [0x%x, 0x%x)", v, kind, ptr, limit));
    }

    private Outcome gcHeap(int i) {
        long v = slot(i);
        long o = memory.readPointer(v);
        requirePointer(o, String.format("*0x%x", v));
        long vt = memory.readPointer(o);
        if (!in.inModule(vt)) {
            throw new Mismatch(String.format("*0x%x = 0x%x, whose first word 0x%x is not in %s (no vtable)", v, o, vt, in.moduleName()));
        }
        long slot0;
        try {
            slot0 = memory.readPointer(vt);
        } catch (MissingMemoryException x) {
            return Outcome.weak(String.format("*0x%x = 0x%x, an object whose first word 0x%x lies in %s (a vtable; its slots are not in the dump)",
                    v, o, vt, in.moduleName()));
        }
        if (!in.inModule(slot0)) {
            throw new Mismatch(String.format("*0x%x = 0x%x: its first word 0x%x is in %s, but that word's first slot 0x%x is not", v, o, vt, in.moduleName(), slot0));
        }
        return Outcome.strong(String.format("*0x%x = 0x%x, an object whose first word 0x%x is a vtable in %s (slot 0 = 0x%x)", v, o, vt, in.moduleName(), slot0));
    }

    private record Mt(long address, long flags, long baseSize, long parent, long perInstInfo) {
    }

    private Mt methodTable(long mt, String what) {
        requirePointer(mt, what);
        return new Mt(mt, memory.readU32(mt + layout.offset("MethodTable", "MTFlags")), memory.readU32(mt + layout.offset("MethodTable", "BaseSize")),
                memory.readPointer(mt + layout.offset("MethodTable", "ParentMethodTable")), memory.readPointer(mt + layout.offset("MethodTable", "PerInstInfo")));
    }

    private boolean componentSized(Mt mt) {
        return (mt.flags() & layout.constant("method_table.flags.has_component_size")) != 0;
    }

    private long componentSize(Mt mt) {
        return mt.flags() & layout.constant("method_table.flags.component_size_mask");
    }

    private boolean array(Mt mt) {
        return (mt.flags() & layout.constant("method_table.flags.category_array_mask")) == layout.constant("method_table.flags.category_array");
    }

    private Outcome stringClass(int i) {
        long v = slot(i);
        Mt mt = methodTable(memory.readPointer(v), String.format("*0x%x", v));
        if (!componentSized(mt) || componentSize(mt) != layout.constant("string.component_size") || mt.baseSize() != layout.constant("string.base_size")
                || array(mt) || mt.parent() == 0) {
            throw new Mismatch(String.format("*0x%x = 0x%x: MTFlags 0x%08x, BaseSize %d, parent 0x%x (System.String's: component size %d, BaseSize %d, not an array, a parent)",
                    v, mt.address(), mt.flags(), mt.baseSize(), mt.parent(), layout.constant("string.component_size"), layout.constant("string.base_size")));
        }
        return Outcome.strong(String.format("*0x%x = MethodTable 0x%x: MTFlags 0x%08x (component size %d), BaseSize %d, not an array: System.String",
                v, mt.address(), mt.flags(), componentSize(mt), mt.baseSize()));
    }

    private Outcome objectClass(int i) {
        long v = slot(i);
        Mt mt = methodTable(memory.readPointer(v), String.format("*0x%x", v));
        if (mt.parent() != 0 || mt.baseSize() != MIN_OBJECT_SIZE || componentSized(mt)) {
            throw new Mismatch(String.format("*0x%x = 0x%x: parent 0x%x, BaseSize %d, MTFlags 0x%08x (System.Object's: no parent, BaseSize %d, no component size)",
                    v, mt.address(), mt.parent(), mt.baseSize(), mt.flags(), MIN_OBJECT_SIZE));
        }
        if (stringMt == 0) {
            return Outcome.weak(String.format("*0x%x = MethodTable 0x%x: no parent, BaseSize %d", v, mt.address(), mt.baseSize()));
        }
        long stringParent = memory.readPointer(stringMt + layout.offset("MethodTable", "ParentMethodTable"));
        if (stringParent != mt.address()) {
            throw new Mismatch(String.format("*0x%x = 0x%x, not System.String's parent 0x%x", v, mt.address(), stringParent));
        }
        return Outcome.strong(String.format("*0x%x = MethodTable 0x%x: no parent, BaseSize %d, and the parent of System.String's 0x%x", v, mt.address(),
                mt.baseSize(), stringMt));
    }

    private Outcome predefinedArrayTypes(int i) {
        long v = slot(i);
        long objectIndex = layout.constant("element_type.object");
        long element = v + 8 * objectIndex;
        Mt mt = methodTable(memory.readPointer(element), String.format("[ELEMENT_TYPE_OBJECT] at 0x%x", element));
        if (!componentSized(mt) || componentSize(mt) != 8 || !array(mt) || mt.parent() == 0) {
            throw new Mismatch(String.format("0x%x[0x%x] = 0x%x: MTFlags 0x%08x, parent 0x%x (Object[]'s: an array of 8-byte components with a parent)",
                    v, objectIndex, mt.address(), mt.flags(), mt.parent()));
        }
        if (objectMt == 0) {
            throw new Unanchored("g_pPredefinedArrayTypes's shape needs g_pObjectClass, which is not known");
        }
        if (mt.perInstInfo() != objectMt) {
            throw new Mismatch(String.format("0x%x[0x%x] = array MethodTable 0x%x whose element type 0x%x is not System.Object's 0x%x",
                    v, objectIndex, mt.address(), mt.perInstInfo(), objectMt));
        }
        return Outcome.strong(String.format("0x%x is TypeHandle[]: its [ELEMENT_TYPE_OBJECT = 0x%x] = 0x%x, an array MethodTable (MTFlags 0x%08x) of System.Object: Object[]",
                v, objectIndex, mt.address(), mt.flags()));
    }

    private Outcome arrayClass(int i) {
        long v = slot(i);
        Mt mt = methodTable(memory.readPointer(v), String.format("*0x%x", v));
        if (objectMt == 0) {
            throw new Unanchored("g_pArrayClass's shape needs g_pObjectClass, which is not known");
        }
        if (mt.parent() != objectMt || componentSized(mt)) {
            throw new Mismatch(String.format("*0x%x = 0x%x: parent 0x%x, MTFlags 0x%08x (System.Array's: parent System.Object 0x%x, no component size)",
                    v, mt.address(), mt.parent(), mt.flags(), objectMt));
        }
        if (objectArrayMt == 0) {
            return Outcome.weak(String.format("*0x%x = MethodTable 0x%x whose parent is System.Object", v, mt.address()));
        }
        long arrayParent = memory.readPointer(objectArrayMt + layout.offset("MethodTable", "ParentMethodTable"));
        if (arrayParent != mt.address()) {
            throw new Mismatch(String.format("*0x%x = 0x%x, not the parent 0x%x of Object[] (0x%x)", v, mt.address(), arrayParent, objectArrayMt));
        }
        return Outcome.strong(String.format("*0x%x = MethodTable 0x%x: parent System.Object, and the parent of Object[] (0x%x): System.Array",
                v, mt.address(), objectArrayMt));
    }

    private Outcome freeObjectMethodTable(int i) {
        long v = slot(i);
        Mt mt = methodTable(memory.readPointer(v), String.format("*0x%x", v));
        if (mt.flags() != layout.constant("free_object.mt_flags") || mt.baseSize() != layout.constant("free_object.base_size") || mt.parent() != 0) {
            throw new Mismatch(String.format("*0x%x = 0x%x: MTFlags 0x%08x, BaseSize %d, parent 0x%x (the free object's: 0x%08x, %d, none)", v, mt.address(),
                    mt.flags(), mt.baseSize(), mt.parent(), layout.constant("free_object.mt_flags"), layout.constant("free_object.base_size")));
        }
        return Outcome.strong(String.format("*0x%x = MethodTable 0x%x: MTFlags 0x%08x, BaseSize %d, no parent: the free object's", v, mt.address(),
                mt.flags(), mt.baseSize()));
    }

    /** SYNC_TABLE_INITIAL_SIZE + 1 entries of 16 bytes (syncblk.cpp): the sync table is never smaller. */
    private static final long MIN_SYNC_TABLE_BYTES = 251 * 16;
    /** glibc malloc: a chunk's size word (flags in the low 3 bits) precedes its memory; the chunk adds 16 bytes. */
    private static final long MALLOC_CHUNK_OVERHEAD = 16;

    /**
     * The sync table: a block the runtime allocated with {@code new SyncTableEntry[n]}, n at least 251. Its entries are
     * no shape to go by (in the samples the block's content is reused), but its size is: the glibc chunk size word before
     * it says a block of at least 251 16-byte entries.
     */
    private Outcome syncTable(int i) {
        long v = slot(i);
        long t = memory.readPointer(v);
        requirePointer(t, String.format("*0x%x", v));
        if (!"linux".equals(layout.os())) {
            // the Windows heap's block headers are not glibc's chunk size words: only the room for 251 entries is checked
            memory.readLong(t + MIN_SYNC_TABLE_BYTES - 8);
            return Outcome.weak(String.format("*0x%x = 0x%x, readable for at least SYNC_TABLE_INITIAL_SIZE + 1 = 251 16-byte SyncTableEntry "
                    + "(a %s heap block: no glibc chunk size word to read its size from)", v, t, layout.os()));
        }
        long chunk = memory.readLong(t - 8) & ~7L;
        if (chunk < MIN_SYNC_TABLE_BYTES + MALLOC_CHUNK_OVERHEAD || chunk > 1L << 32 || chunk % 16 != 0) {
            throw new Mismatch(String.format("*0x%x = 0x%x, whose malloc chunk size word (0x%x) is no block of at least %d 16-byte entries", v, t,
                    memory.readLong(t - 8), MIN_SYNC_TABLE_BYTES / 16));
        }
        return Outcome.weak(String.format("*0x%x = 0x%x, a malloc block of 0x%x bytes (its chunk size word at -8): room for %d 16-byte SyncTableEntry, "
                + "at least SYNC_TABLE_INITIAL_SIZE + 1 = 251", v, t, chunk, (chunk - MALLOC_CHUNK_OVERHEAD) / 16));
    }

    private long objectModule(DacEntry who) {
        if (objectMt == 0) {
            throw new Unanchored(who.dacName() + "'s shape needs g_pObjectClass, which is not known");
        }
        long module = memory.readPointer(objectMt + layout.offset("MethodTable", "Module"));
        requirePointer(module, String.format("System.Object's Module (MethodTable 0x%x + 0x%x)", objectMt, layout.offset("MethodTable", "Module")));
        return module;
    }

    private Outcome moduleVtable(int i) {
        long v = slot(i);
        long module = objectModule(DacEntry.MODULE_VTABLE);
        long vt = memory.readPointer(module);
        if (v != vt || !in.inModule(vt)) {
            throw new Mismatch(String.format("g_dacTable[%d] = 0x%x, not the vtable 0x%x that System.Object's Module 0x%x starts with", i, v, vt, module));
        }
        return Outcome.strong(String.format("g_dacTable[%d] = 0x%x, the first word of System.Object's Module 0x%x (MethodTable+0x%x), a vtable in %s",
                i, v, module, layout.offset("MethodTable", "Module"), in.moduleName()));
    }

    /**
     * LoadedImageLayout's vtable: the first word of CoreLib's loaded image layout where it is one of its own (a runtime
     * that maps CoreLib from its file). In a single-file bundle CoreLib's loaded layout is its flat layout (a
     * FlatImageLayout); vptr_list.h lists PEImageLayout, ConvertedImageLayout, LoadedImageLayout, FlatImageLayout in a
     * row, so LoadedImageLayout's is then the entry right before the one FlatImageLayout's vtable is.
     */
    private Outcome loadedImageLayoutVtable(int i) {
        long v = slot(i);
        long module = objectModule(DacEntry.LOADED_IMAGE_LAYOUT_VTABLE);
        long assembly = memory.readPointer(module + layout.offset("Module", "PEAssembly"));
        long image = memory.readPointer(assembly + layout.offset("PEAssembly", "PEImage"));
        long loaded = memory.readPointer(image + layout.offset("PEImage", "LoadedLayout"));
        long flat = memory.readPointer(image + layout.offset("PEImage", "FlatLayout"));
        if (loaded != 0 && loaded != flat) {
            long vt = memory.readPointer(loaded);
            if (v != vt || !in.inModule(vt)) {
                throw new Mismatch(String.format("g_dacTable[%d] = 0x%x, not the vtable 0x%x of CoreLib's loaded layout 0x%x", i, v, vt, loaded));
            }
            return Outcome.strong(String.format("g_dacTable[%d] = 0x%x, the first word of CoreLib's loaded image layout 0x%x (Module 0x%x -> PEAssembly -> PEImage "
                    + "-> LoadedLayout, which is not its flat layout 0x%x)", i, v, loaded, module, flat));
        }
        requirePointer(flat, String.format("CoreLib's PEImage 0x%x FlatLayout (its LoadedLayout is 0x%x)", image, loaded));
        long flatVtable = memory.readPointer(flat);
        if (i + 1 >= in.dacTableLength() || slot(i + 1) != flatVtable) {
            throw new Mismatch(String.format("g_dacTable[%d] is not right before FlatImageLayout's vtable 0x%x (CoreLib's loaded layout is its flat layout 0x%x)",
                    i, flatVtable, flat));
        }
        if (v == flatVtable || !in.inModule(v) || !in.inModule(memory.readPointer(v))) {
            throw new Mismatch(String.format("g_dacTable[%d] = 0x%x, not another vtable in %s", i, v, in.moduleName()));
        }
        return Outcome.weak(String.format("g_dacTable[%d] = 0x%x, a vtable in %s right before FlatImageLayout's (g_dacTable[%d] = 0x%x, the first word of CoreLib's "
                + "flat layout 0x%x, which is also its loaded layout: a single-file bundle); vptr_list.h has LoadedImageLayout right before FlatImageLayout",
                i, v, in.moduleName(), i + 1, flatVtable, flat));
    }
}
