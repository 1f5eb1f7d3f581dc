package io.clrheap.layout.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.LayoutException;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.SegmentMemory;
import org.junit.jupiter.api.Test;

class ViewFactoryTest {

    private static final long BASE = 0x7f1200000000L;
    private static final ProfileLoader LOADER = ProfileLoader.builtIn();

    private final RuntimeLayout net8Server = LOADER.load(RuntimeVersion.NET8, GcFlavor.SERVER);
    private final SegmentMemory memory = SegmentMemory.allocate(BASE, 0x4000, "view test memory");

    @Test
    void readsEachFieldAtTheProfilesOffset() {
        memory.writeLong(BASE + 0x00, 0x1000);    // allocated
        memory.writeLong(BASE + 0x20, 0x0028);    // mem
        memory.writeLong(BASE + 0x28, 0x0208);    // flags
        memory.writeLong(BASE + 0x30, 0xabcdef);  // next
        memory.writeLong(BASE + 0x40, 0x4242);    // heap (server)
        HeapSegment seg = new ViewFactory(net8Server).view(HeapSegment.class, memory, BASE);
        assertThat(seg.allocated()).isEqualTo(0x1000);
        assertThat(seg.mem()).isEqualTo(0x28);
        assertThat(seg.flags()).isEqualTo(0x208);
        assertThat(seg.next()).isEqualTo(0xabcdef);
        assertThat(seg.hasHeap()).isTrue();
        assertThat(seg.heap()).isEqualTo(0x4242);
        assertThat(seg.address()).isEqualTo(BASE);
        assertThat(seg).hasToString("heap_segment@0x7f1200000000");
    }

    @Test
    void writableViewsWriteWhereReadOnlyViewsRead() {
        ViewFactory views = new ViewFactory(net8Server);
        HeapSegment.Writable w = views.view(HeapSegment.Writable.class, memory, BASE + 0x100);
        w.next(0x7777);
        w.genNum(2);
        w.flags(1);
        long genNumOffset = net8Server.offset("heap_segment", "gen_num");
        assertThat(memory.readLong(BASE + 0x100 + 0x30)).isEqualTo(0x7777);
        assertThat(memory.readU8(BASE + 0x100 + genNumOffset)).isEqualTo(2);
        HeapSegment r = views.view(HeapSegment.class, memory, BASE + 0x100);
        assertThat(r.next()).isEqualTo(0x7777);
        assertThat(r.genNum()).isEqualTo(2);
        assertThat(r.flags()).isEqualTo(1);
    }

    @Test
    void anOptionalFieldTheProfileLacksThrowsNamingTheProfile() {
        RuntimeLayout wks = LOADER.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION);
        HeapSegment seg = new ViewFactory(wks).view(HeapSegment.class, memory, BASE);
        assertThat(seg.hasHeap()).isFalse();
        assertThatThrownBy(seg::heap).isInstanceOf(LayoutException.class)
                .hasMessageContaining("heap_segment.heap is not in the net8.0 workstation (linux-x64) profile");
    }

    @Test
    void embeddedStructuresAreViewsAtTheFieldAddress() {
        ViewFactory views = new ViewFactory(net8Server);
        NativeThread.Writable thread = views.view(NativeThread.Writable.class, memory, BASE + 0x1000);
        thread.inlineAllocContext().allocPtr(0x5000);
        thread.inlineAllocContext().allocLimit(0x6000);
        assertThat(memory.readLong(BASE + 0x1000 + 0x58)).isEqualTo(0x5000);
        AllocContext ctx = views.view(NativeThread.class, memory, BASE + 0x1000).inlineAllocContext();
        assertThat(ctx.address()).isEqualTo(BASE + 0x1000 + 0x58);
        assertThat(ctx.allocLimit()).isEqualTo(0x6000);
    }

    @Test
    void arrayFieldsAreIndexedAndBoundsChecked() {
        ViewFactory views = new ViewFactory(net8Server);
        ServerHeap.Writable heap = views.view(ServerHeap.Writable.class, memory, BASE);
        long table = net8Server.offset("gc_heap", "generation_table");
        heap.generationTable(2).startSegment(0x1234);
        assertThat(memory.readLong(BASE + table + 2 * 264 + 0x38)).isEqualTo(0x1234);
        assertThatThrownBy(() -> heap.generationTable(5)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void anEmbeddedStructureCanBeAskedForItsAddressWhateverItsType() {
        RuntimeLayout net10 = LOADER.load(RuntimeVersion.NET10, GcFlavor.SERVER);
        RuntimeThreadLocals rtl = new ViewFactory(net10).view(RuntimeThreadLocals.class, memory, BASE + 0x200);
        assertThat(rtl.allocContextAddress()).isEqualTo(BASE + 0x200);
        EeAllocContext ee = new ViewFactory(net10).view(EeAllocContext.class, memory, rtl.allocContextAddress());
        assertThat(ee.gcAllocContext().address()).isEqualTo(BASE + 0x208);
    }

    @Test
    void unsignedFieldsAreZeroExtended() {
        memory.writeInt(BASE + 0x300, 0x80000001);
        memory.writeShort(BASE + 0x30e, (short) 0xfffe);
        MethodTable mt = new ViewFactory(net8Server).view(MethodTable.class, memory, BASE + 0x300);
        assertThat(mt.flags()).isEqualTo(0x80000001);
        assertThat(mt.numInterfaces()).isEqualTo(0xfffe);
        memory.writeInt(BASE + 0x308, -1);
        ArrayObject array = new ViewFactory(net8Server).view(ArrayObject.class, memory, BASE + 0x300);
        assertThat(array.numComponents()).isEqualTo(0xffffffffL);
    }

    @Test
    void twoRuntimeVersionsLiveSideBySide() {
        RuntimeLayout net9 = LOADER.load(RuntimeVersion.NET9, GcFlavor.WORKSTATION);
        memory.writeLong(BASE + 0x20, 0x9999);
        NativeThread on8 = new ViewFactory(net8Server).view(NativeThread.class, memory, BASE);
        NativeThread on9 = new ViewFactory(net9).view(NativeThread.class, memory, BASE);
        assertThat(on8.hasRuntimeThreadLocals()).isFalse();
        assertThat(on9.runtimeThreadLocals()).isEqualTo(0x9999);
        assertThat(on8.getClass()).isNotEqualTo(on9.getClass());
    }

    @Test
    void eachFactoryHasItsOwnGeneratedClassesInItsOwnLoader() {
        HeapSegment a = new ViewFactory(net8Server).view(HeapSegment.class, memory, BASE);
        HeapSegment b = new ViewFactory(net8Server).view(HeapSegment.class, memory, BASE);
        assertThat(a.getClass()).isNotSameAs(b.getClass());
        assertThat(a.getClass().getClassLoader()).isNotSameAs(b.getClass().getClassLoader())
                .isNotSameAs(ViewFactory.class.getClassLoader());
    }

    @Test
    void aWritableViewNeedsWritableMemory() {
        io.clrheap.memory.Memory readOnly = new ReadOnlyMemory(memory);
        assertThatThrownBy(() -> new ViewFactory(net8Server).bind(HeapSegment.Writable.class, readOnly))
                .isInstanceOf(LayoutException.class).hasMessageContaining("read-only");
    }

    @Struct("heap_segment")
    public interface WithMissingField extends StructView {
        @Field("no_such_field") long value();
    }

    @Test
    void bindingFailsAtOnceWhenARequiredFieldIsMissing() {
        assertThatThrownBy(() -> new ViewFactory(net8Server).bind(WithMissingField.class, memory))
                .isInstanceOf(LayoutException.class)
                .hasMessageContaining("WithMissingField.value()")
                .hasMessageContaining("field 'heap_segment.no_such_field' is not in the profile");
    }

    @Struct("heap_segment")
    public interface WithNarrowType extends StructView {
        @Field("next") int next();
    }

    @Test
    void bindingFailsWhenTheJavaTypeCannotHoldTheField() {
        assertThatThrownBy(() -> new ViewFactory(net8Server).bind(WithNarrowType.class, memory))
                .isInstanceOf(LayoutException.class)
                .hasMessageContaining("heap_segment.next is pointer (8 bytes); int cannot hold it");
    }

    @Struct("no_such_struct")
    public interface OfUnknownStruct extends StructView {
    }

    @Test
    void bindingFailsForAStructureTheProfileLacks() {
        assertThatThrownBy(() -> new ViewFactory(net8Server).bind(OfUnknownStruct.class, memory))
                .hasMessageContaining("structure 'no_such_struct' is not in the net8.0 server (linux-x64) profile");
    }

    @Test
    void everyViewOfThisModuleBindsToEveryProfile() {
        Class<?>[] views = {HeapSegment.class, HeapSegment.Writable.class, AllocContext.class, AllocContext.Writable.class,
            Generation.class, Generation.Writable.class, GcHeap.class, GcHeap.Writable.class, GcHeapVtable.class,
            GcDacVars.class, GcDacVars.Writable.class, NativeThread.class, NativeThread.Writable.class, ThreadStore.class,
            ThreadStore.Writable.class, MethodTable.class, MethodTable.Writable.class, EeClass.class, ArrayObject.class,
            StringObject.class, ObjectHeader.class, FinalizeQueue.class, FinalizeQueue.Writable.class, HandleTableMap.class,
            HandleTableBucket.class, HandleTable.class, TableSegment.class, TableSegment.Writable.class,
            DotNetRuntimeInfo.class, SegmentInfo.class};
        for (RuntimeVersion v : RuntimeVersion.values()) {
            for (GcFlavor gc : GcFlavor.values()) {
                ViewFactory factory = new ViewFactory(LOADER.load(v, gc));
                for (Class<?> view : views) {
                    @SuppressWarnings("unchecked")
                    Class<? extends StructView> type = (Class<? extends StructView>) view;
                    assertThat(factory.bind(type, memory).at(BASE).address()).as("%s on %s %s", view.getSimpleName(), v, gc).isEqualTo(BASE);
                }
                if (gc == GcFlavor.SERVER) {
                    assertThat(factory.bind(ServerHeap.Writable.class, memory).at(BASE)).isNotNull();
                }
                if (v.major() >= 9) {
                    assertThat(factory.bind(RuntimeThreadLocals.class, memory).at(BASE)).isNotNull();
                    assertThat(factory.bind(ContractDescriptor.Writable.class, memory).at(BASE)).isNotNull();
                }
                if (v.major() >= 10) {
                    assertThat(factory.bind(EeAllocContext.Writable.class, memory).at(BASE)).isNotNull();
                }
            }
        }
    }

    /** A memory that is not writable, to check that writable views refuse it. */
    private record ReadOnlyMemory(SegmentMemory inner) implements io.clrheap.memory.Memory {
        public byte readByte(long a) { return inner.readByte(a); }
        public short readShort(long a) { return inner.readShort(a); }
        public int readInt(long a) { return inner.readInt(a); }
        public long readLong(long a) { return inner.readLong(a); }
        public void read(long a, byte[] d, int o, int l) { inner.read(a, d, o, l); }
        public boolean contains(long a, long l) { return inner.contains(a, l); }
        public java.util.List<io.clrheap.memory.MemoryRange> ranges() { return inner.ranges(); }
        public String describe() { return "read-only test memory"; }
    }
}
