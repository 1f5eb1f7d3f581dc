package io.clrheap.walker.explain;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The thread store and its threads, read and narrated the way {@link io.clrheap.walker.discovery.HeapDiscovery}
 * reads them: {@code ThreadStore::s_pThreadStore} → {@code FirstThreadLink} → every {@code Thread}'s {@code m_Link}
 * (the Thread is at link − LinkNext) → its allocation context (inline {@code m_alloc_context} on .NET 8, through
 * {@code RuntimeThreadLocals} on 9 and 10, inside an {@code ee_alloc_context} on 10). Both narrators use it: the dump
 * path for the contexts to skip, the in-process path for {@code gc_reserved_1}.
 */
final class ThreadChain {

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final FieldReader reader;
    private final int maxThreads;

    ThreadChain(Target target, FieldReader reader, int maxThreads) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.reader = reader;
        this.maxThreads = maxThreads;
    }

    /**
     * Every thread found, each with its own section. Adds to {@code sections} the thread store's, the first
     * {@code detailed} threads' and a line naming the rest (none when {@code detailed} is 0: the caller picks which
     * threads to show).
     */
    List<NarratedThread> read(List<ExplainSection> sections, int detailed) {
        List<NarratedThread> threads = new ArrayList<>();
        int index = target.build().dacTable().indexOf("ThreadStore::s_pThreadStore").orElseThrow();
        long variable;
        SectionBuilder store;
        long storeAddress;
        long link;
        try {
            variable = memory.readPointer(target.module().dacTable() + 8L * index);
            storeAddress = memory.readPointer(variable);
            store = new SectionBuilder("thread store", FieldReader.format("ThreadStore at 0x%x (g_dacTable[%d] ThreadStore::s_pThreadStore → *0x%x)",
                    storeAddress, index, variable));
            store.add(DacEntries.entry(reader, target, "ThreadStore::s_pThreadStore", v -> "→ ThreadStore* " + FieldReader.hex(storeAddress)));
            link = store.add(reader.field("ThreadStore", storeAddress, "FirstThreadLink",
                    v -> v == 0 ? "no thread" : "the first Thread's m_Link"));
            store.add(reader.field("ThreadStore", storeAddress, "ThreadCount", v -> v + " threads"));
        } catch (MissingMemoryException e) {
            sections.add(new SectionBuilder("thread store", "").note("the thread store cannot be read: %s; no thread's allocation context is known", e.getMessage()).build());
            return threads;
        }
        sections.add(store.build());
        long linkOffset = layout.offset("Thread", "LinkNext");
        Set<Long> seen = new HashSet<>();
        while (link != 0) {
            if (!seen.add(link) || seen.size() > maxThreads) {
                sections.add(new SectionBuilder("thread list", FieldReader.format("at link 0x%x", link))
                        .note("the thread list does not end (a link comes again, or more than %d threads); it is cut here", maxThreads).build());
                break;
            }
            long thread = link - linkOffset;
            try {
                NarratedThread t = thread(thread, link);
                threads.add(t);
                if (threads.size() <= detailed) {
                    sections.add(t.section());
                }
                link = memory.readPointer(thread + linkOffset);
            } catch (MissingMemoryException e) {
                sections.add(new SectionBuilder("thread", FieldReader.format("Thread at 0x%x", thread))
                        .note("the Thread cannot be read (%s); the list is cut here", e.getMessage()).build());
                break;
            }
        }
        if (detailed > 0 && threads.size() > detailed) {
            List<String> rest = threads.subList(detailed, threads.size()).stream()
                    .map(t -> t.owner() + (t.pointer() == 0 ? "" : FieldReader.format(" [0x%x, 0x%x)", t.pointer(), t.limit()))).toList();
            sections.add(new SectionBuilder("further threads", rest.size() + " more (--all narrates them)")
                    .note(String.join(", ", rest)).build());
        }
        return threads;
    }

    private NarratedThread thread(long thread, long link) {
        boolean hasOsId = layout.type("Thread").findField("OSId").isPresent();
        long id = memory.readU32(thread + layout.offset("Thread", "Id"));
        long osId = hasOsId ? memory.readLong(thread + layout.offset("Thread", "OSId")) : 0;
        String owner = "thread " + id + (hasOsId ? " (tid " + osId + ")" : "");
        SectionBuilder s = new SectionBuilder(owner, FieldReader.format("Thread at 0x%x (m_Link 0x%x − 0x%x)", thread, link, layout.offset("Thread", "LinkNext")));
        s.add(reader.field("Thread", thread, "Id", v -> "the managed thread id"));
        if (hasOsId) {
            s.add(reader.field("Thread", thread, "OSId", v -> "the operating system's thread id"));
        }
        long location;
        if (layout.type("Thread").findField("m_alloc_context").isPresent()) {
            location = thread + layout.offset("Thread", "m_alloc_context");
            s.note("the allocation context is inline: Thread.m_alloc_context at +0x%x = 0x%x [%s]", layout.offset("Thread", "m_alloc_context"), location,
                    FieldReader.source(layout.field("Thread", "m_alloc_context").provenance()));
        } else {
            long locals = s.add(reader.field("Thread", thread, "RuntimeThreadLocals",
                    v -> v == 0 ? "no RuntimeThreadLocals: the thread never allocated" : "RuntimeThreadLocals*"));
            if (locals == 0) {
                s.note("no allocation context");
                s.add(reader.field("Thread", thread, "LinkNext", v -> v == 0 ? "the end of the thread list" : "the next Thread's m_Link"));
                return new NarratedThread(owner, thread, 0, 0, 0, 0, s.build());
            }
            String contextType = layout.field("RuntimeThreadLocals", "AllocContext").type().element();
            long inner = contextType.equals("ee_alloc_context") ? layout.offset("ee_alloc_context", "m_GCAllocContext") : 0;
            location = locals + layout.offset("RuntimeThreadLocals", "AllocContext") + inner;
            s.note("RuntimeThreadLocals.AllocContext at +0x%x is a%s %s%s: the gc_alloc_context is at 0x%x",
                    layout.offset("RuntimeThreadLocals", "AllocContext"), contextType.startsWith("e") ? "n" : "", contextType,
                    inner == 0 ? "" : FieldReader.format(" (its m_GCAllocContext at +0x%x)", inner), location);
        }
        long pointer = s.add(reader.field("gc_alloc_context", location, "alloc_ptr", v -> v == 0 ? "0: not in use" : "the next object goes here"));
        long limit = s.add(reader.field("gc_alloc_context", location, "alloc_limit", v -> "usable end"));
        long heap = s.add(reader.field("gc_alloc_context", location, "gc_reserved_1",
                v -> v == 0 ? "0: not set (never under workstation GC)" : "its heap's GCHeap* (server GC)"));
        if (pointer != 0) {
            s.note("the walk skips [alloc_ptr, alloc_limit + %d) = [0x%x, 0x%x): no object there yet",
                    layout.constant("alloc_context.tail_reserve"), pointer, limit + layout.constant("alloc_context.tail_reserve"));
        }
        s.add(reader.field("Thread", thread, "LinkNext", v -> v == 0 ? "the end of the thread list" : "the next Thread's m_Link"));
        return new NarratedThread(owner, thread, location, pointer, limit, heap, s.build());
    }
}
