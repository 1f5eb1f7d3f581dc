package io.clrheap.walker.explain;

import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import io.clrheap.walker.fields.ObjectFields;

/**
 * Explains one address: which region holds it (or which is nearest), which object (found by walking the region with
 * {@link HeapWalker} up to it, so that an address inside an object or in an allocation context's unused space is
 * told apart from an object start), and how the object's size and the next object's address are computed — with
 * {@link WalkRules}, the walker's own arithmetic, so the explanation cannot disagree with a walk. The walker's own
 * size and next object are kept beside the explanation's as a check.
 */
public final class ObjectExplainer {

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final WalkRules rules;
    private final DiscoveredHeap heap;
    private final TypeNames names;
    private final FieldReader reader;
    private final ObjectFields fields;

    public ObjectExplainer(Target target, DiscoveredHeap heap, TypeNames names) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.rules = WalkRules.of(layout);
        this.heap = heap;
        this.names = names;
        this.reader = new FieldReader(memory, layout);
        this.fields = new ObjectFields(memory, layout, names.metadata().orElse(null));
    }

    public ObjectExplanation explain(long address) {
        Region region = heap.regionsByAddress().stream().filter(r -> r.contains(address)).findFirst().orElse(null);
        if (region == null) {
            return outside(address);
        }
        Walked walked = walkTo(region, address);
        if (walked.start < 0) {
            return gap(address, region, walked);
        }
        return object(address, region, walked);
    }

    /** What the walker saw around the address: the object holding it (start -1 if none) and the one after. */
    private record Walked(long start, long size, long next, long before) {
    }

    /** Thrown by the visitor once the object after the asked one is seen: the walk need not go on. */
    private static final class Enough extends RuntimeException {
        Enough() {
            super(null, null, false, false);
        }
    }

    /** Walks {@code region} alone, with every context, as the walker would, up to the object after {@code address}. */
    private Walked walkTo(Region region, long address) {
        SubHeap only = new SubHeap(region.heap(), 0, 0, 0, 0, 0, List.of(region));
        DiscoveredHeap one = new DiscoveredHeap(heap.gc(), List.of(only), heap.contexts(), heap.freeMethodTable(), heap.gcInProgress(), List.of());
        long[] found = {-1, -1, -1, region.mem()};
        try {
            new HeapWalker(memory, rules, one, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
                @Override
                public void object(long object, long mt, long size, Region r) {
                    if (found[0] >= 0 || Long.compareUnsigned(object, address) > 0) {
                        found[2] = object;
                        throw new Enough();
                    }
                    if (Long.compareUnsigned(address - object, rules.step(size)) < 0) {
                        found[0] = object;
                        found[1] = size;
                    } else {
                        found[3] = object;
                    }
                }

                @Override
                public void problem(Problem problem) {
                    // a bad object is the walk's to report; here the next object seen is what matters
                }
            });
        } catch (Enough e) {
            // the object after the asked one was seen
        }
        return new Walked(found[0], found[1], found[2], found[3]);
    }

    private ObjectExplanation outside(long address) {
        Region nearest = heap.regionsByAddress().stream().min(Comparator.comparing(r -> distance(r, address), Long::compareUnsigned)).orElse(null);
        SectionBuilder s = new SectionBuilder("not in the heap", FieldReader.format("0x%x", address));
        if (nearest == null) {
            s.note("no region was found in this dump");
        } else {
            s.note("no region holds 0x%x; the nearest is %s, %s", address, nearest,
                    Long.compareUnsigned(address, nearest.mem()) < 0 ? FieldReader.format("which starts 0x%x bytes after it", nearest.mem() - address)
                            : FieldReader.format("which ends 0x%x bytes before it", address - nearest.end() + 1));
        }
        return new ObjectExplanation(address, null, nearest, null, 0, 0, "", "", 0, 0, 0, -1, -1, s.build(), null, null);
    }

    private static long distance(Region r, long address) {
        if (Long.compareUnsigned(address, r.mem()) < 0) {
            return r.mem() - address;
        }
        return Long.compareUnsigned(address, r.end()) < 0 ? 0 : address - r.end() + 1;
    }

    /** In a region but in no object: an allocation context's unused space, or a stretch the walk skipped. */
    private ObjectExplanation gap(long address, Region region, Walked walked) {
        SectionBuilder s = new SectionBuilder("no object", FieldReader.format("0x%x in %s, heap %d %s", address, region, region.heap(), region.kind().id()));
        AllocContextInfo context = contextHolding(region, address);
        if (context != null) {
            s.note("0x%x lies in the unused space of the allocation context of %s: [alloc_ptr 0x%x, alloc_limit 0x%x + %d) = [0x%x, 0x%x)",
                    address, context.owner(), context.pointer(), context.limit(), layout.constant("alloc_context.tail_reserve"),
                    context.pointer(), rules.contextEnd(context.limit()));
            s.note("no object is there yet: the thread's next allocations go there; the walk skips it and goes on at 0x%x",
                    rules.contextEnd(context.limit()));
        } else {
            s.note("the walk from mem 0x%x reaches no object holding 0x%x: after the object at 0x%x it goes on at %s (a stretch the walk skips after a bad object)",
                    region.mem(), address, walked.before(), walked.next() < 0 ? "the region's end" : FieldReader.hex(walked.next()));
        }
        return new ObjectExplanation(address, region, null, context, 0, 0, "", "", 0, 0, walked.next() < 0 ? region.end() : walked.next(),
                -1, walked.next(), s.build(), null, null);
    }

    private AllocContextInfo contextHolding(Region region, long address) {
        if (!region.kind().smallObjectHeap()) {
            return null;
        }
        for (AllocContextInfo c : heap.contexts()) {
            if (c.inUse() && Long.compareUnsigned(address - c.pointer(), rules.contextEnd(c.limit()) - c.pointer()) < 0) {
                return c;
            }
        }
        return null;
    }

    private ObjectExplanation object(long address, Region region, Walked walked) {
        long start = walked.start();
        SectionBuilder s = new SectionBuilder("object", FieldReader.format("at 0x%x in heap %d %s, %s", start, region.heap(), region.kind().id(), region));
        if (start != address) {
            s.note("0x%x is not an object start: it lies 0x%x bytes into the object at 0x%x (found by walking the region from mem 0x%x)",
                    address, address - start, start, region.mem());
        }
        long unmask = layout.constant("object.mt_unmask");
        long word = s.add(reader.field("Object", start, "m_pMethTab", v -> (v & unmask) == 0 ? "the MethodTable word"
                : FieldReader.format("the MethodTable word, with mark bits 0x%x set (a GC marked it)", v & unmask)));
        long mt = word & ~unmask;
        s.note("MethodTable = word & ~0x%x (object.mt_unmask) = 0x%x", unmask, mt);
        int flags = (int) s.add(reader.field("MethodTable", mt, "MTFlags", v -> {
            int component = rules.componentSize((int) v);
            return component != 0 || (v & layout.constant("method_table.flags.has_component_size")) != 0
                    ? FieldReader.format("HasComponentSize set: ComponentSize = low 16 bits = %d", component)
                    : "HasComponentSize clear: every instance has BaseSize bytes";
        }));
        long baseSize = s.add(reader.field("MethodTable", mt, "BaseSize", v -> "bytes of an instance with no components, header included"));
        int component = rules.componentSize(flags);
        String kind = kind(mt, flags);
        long count = 0;
        if (component != 0) {
            String countField = kind.equals("string") ? "m_StringLength" : "m_NumComponents";
            String countType = kind.equals("string") ? "String" : "Array";
            count = s.add(reader.field(countType, start, countField, v -> switch (kind) {
                case "string" -> "the string's length in UTF-16 characters";
                case "free object" -> "a free object has an array's shape: its length in bytes past BaseSize";
                case "multi-dimensional array" -> "the total element count (the bounds are in BaseSize)";
                default -> "the array's element count";
            }));
        }
        long size = rules.size(baseSize, component, count);
        long step = rules.step(size);
        s.note(component == 0 ? FieldReader.format("size = BaseSize = %d", size)
                : FieldReader.format("size = BaseSize + count × ComponentSize = %d + %d × %d = %d (unaligned: what reports say)",
                        baseSize, count, component, size));
        s.note("step = max(align8(%d), %d) = %d", size, rules.minObjectSize(), step);
        long next = start + step;
        s.note("next = 0x%x + %d = 0x%x", start, step, next);
        next = pastContexts(region, next, s);
        if (Long.compareUnsigned(next, region.end()) >= 0) {
            s.note("0x%x is the region's end%s: no object follows in this region", region.end(),
                    region.ephemeral() ? " (alloc_allocated: the ephemeral region)" : "");
        }
        String type = names.display(mt, heap.freeMethodTable());
        s.note("%s, %s; heap %d, %s", kind, type, region.heap(), generation(region));
        if (kind.equals("string")) {
            try {
                s.note("text: \"%s\"", fields.text(start, MAX_TEXT_SHOWN));
            } catch (MissingMemoryException e) {
                s.note("text: not in the dump (%s)", e.getMessage());
            }
        }
        if (walked.size() != size) {
            s.note("the walker reports size %d: it differs", walked.size());
        }
        long walkerNext = walked.next();
        if (walkerNext != next && !(walkerNext < 0 && Long.compareUnsigned(next, region.end()) >= 0)) {
            s.note("the walker's next object is at %s", walkerNext < 0 ? "none" : FieldReader.hex(walkerNext));
        }
        s.excerpt(excerpt(start, size));
        return new ObjectExplanation(address, region, null, null, start, mt, kind, type, size, step, next, walked.size(), walkerNext, s.build(),
                nameChase(mt), references(start, mt, size, region));
    }

    /** The object's references, read from its MethodTable's GC descriptor as the GC reads them, with their field offsets. */
    private ExplainSection references(long object, long mt, long size, Region region) {
        if (mt == heap.freeMethodTable()) {
            return null;
        }
        SectionBuilder s = new SectionBuilder("references", FieldReader.format("of 0x%x, from the GC descriptor before MethodTable 0x%x", object, mt));
        int[] count = {0};
        Problem p = new ObjectReferences(memory, layout).references(object, mt, size, region, (from, offset, to) -> {
            count[0]++;
            if (count[0] <= MAX_REFERENCES_LISTED) {
                String slot = fields.slotName(object, mt, offset);
                s.note("+0x%x -> 0x%x %s%s", offset, to, describe(to), slot.startsWith("+") ? "" : " (" + slot + ")");
            }
        });
        if (count[0] > MAX_REFERENCES_LISTED) {
            s.note("… %d more (%d references in all)", count[0] - MAX_REFERENCES_LISTED, count[0]);
        }
        if (count[0] == 0 && p == null) {
            s.note((memory.readU32(mt + layout.offset("MethodTable", "MTFlags")) & layout.constant("method_table.flags.contains_gc_pointers")) == 0
                    ? "none: its MethodTable's flags lack ContainsGCPointers (no GC descriptor)" : "none: every reference field is null");
        }
        if (p != null) {
            s.note("%s", p.describe());
        }
        return s.build();
    }

    /** The type of the object at {@code address}, or what is wrong with it, for a reference's line. */
    private String describe(long address) {
        try {
            long word = memory.readPointer(address) & ~layout.constant("object.mt_unmask");
            return names.display(word, heap.freeMethodTable());
        } catch (MissingMemoryException e) {
            return "(not in the dump)";
        }
    }

    /** A string's text is shown up to this many characters. */
    static final int MAX_TEXT_SHOWN = 80;

    /** The references listed one by one; more are counted. */
    static final int MAX_REFERENCES_LISTED = 64;

    /** The name chase of the type (MethodTable → Module → metadata row → string), when names come from metadata. */
    private ExplainSection nameChase(long mt) {
        if (mt == heap.freeMethodTable() || names.metadata().isEmpty()) {
            return null; // the free-object MethodTable has no TypeDef: every reader calls it Free
        }
        SectionBuilder s = new SectionBuilder("type name", FieldReader.format("of MethodTable 0x%x, from its module's ECMA-335 metadata", mt));
        names.metadata().get().chase(mt).forEach(line -> s.note("%s", line));
        return s.build();
    }

    /** Past every allocation context starting where the walk would go on (contexts may chain), as the walker skips them. */
    private long pastContexts(Region region, long next, SectionBuilder s) {
        if (!region.kind().smallObjectHeap()) {
            return next;
        }
        List<AllocContextInfo> contexts = new ArrayList<>(heap.contexts().stream().filter(AllocContextInfo::inUse).toList());
        boolean moved = true;
        while (moved && Long.compareUnsigned(next, region.end()) < 0) {
            moved = false;
            for (AllocContextInfo c : contexts) {
                if (c.pointer() == next) {
                    long past = rules.contextEnd(c.limit());
                    past = Long.compareUnsigned(past, next) > 0 ? past : next + rules.minObjectSize();
                    s.note("0x%x is alloc_ptr of the allocation context of %s: the walk skips [alloc_ptr, alloc_limit 0x%x + %d) and goes on at 0x%x",
                            next, c.owner(), c.limit(), rules.contextTailReserve(), past);
                    next = past;
                    contexts.remove(c);
                    moved = true;
                    break;
                }
            }
        }
        return next;
    }

    private static String generation(Region region) {
        return switch (region.kind()) {
            case GEN0, GEN1, GEN2 -> "generation " + region.kind().generationTableIndex() + (region.ephemeral() ? " (the ephemeral region)" : "");
            case LOH -> "the large object heap (generation 3)";
            case POH -> "the pinned object heap (generation 4)";
            case FROZEN -> "a frozen segment (not collected; reported with generation 2)";
        };
    }

    /** free object, string, array, multi-dimensional array or object, from the free MT, g_pStringClass and the MT flags. */
    private String kind(long mt, int flags) {
        if (mt == heap.freeMethodTable()) {
            return "free object";
        }
        if (mt == stringMethodTable()) {
            return "string";
        }
        long array = layout.constant("method_table.flags.category_array");
        if ((flags & layout.constant("method_table.flags.category_array_mask")) == array) {
            return (flags & layout.constant("method_table.flags.if_array_then_sz_array")) != 0 ? "array" : "multi-dimensional array";
        }
        return rules.componentSize(flags) != 0 ? "object with components" : "object";
    }

    private long stringMethodTable() {
        try {
            return target.build().dacTable().indexOf("g_pStringClass").isPresent() ? target.globalPointer("g_pStringClass") : 0;
        } catch (MissingMemoryException e) {
            return 0;
        }
    }

    /** The header and the first words of the object, its MethodTable word marked. */
    private HexExcerpt excerpt(long start, long size) {
        long header = layout.constant("object.header_size");
        int span = (int) Math.min(header + size, 48);
        return HexExcerpt.around(memory, start, 8, start - header, span);
    }
}
