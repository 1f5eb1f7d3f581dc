package io.clrheap.layout.view;

/**
 * The runtime's native {@code Thread} (threads.h), as far as heap walkers read it. Field names are those of the
 * runtime's data descriptor where it has them. .NET 8 holds the allocation context inline
 * ({@code m_alloc_context}); 9 and 10 reach it through {@code RuntimeThreadLocals}.
 */
@Struct("Thread")
public interface NativeThread extends StructView {

    @Field("State") int state();

    @Field("PreemptiveGCDisabled") int preemptiveGcDisabled();

    @Field("Frame") long frame();

    /** The managed thread id (thin-lock id). */
    @Field("Id") int id();

    /** The operating system's thread id. */
    @Field(value = "OSId", optional = true) long osId();

    @Has("OSId") boolean hasOsId();

    /** {@code m_Link}: the thread list link. The Thread is at (link address − this offset). */
    @Field("LinkNext") long linkNext();

    /** .NET 8: the inline allocation context. */
    @Field(value = "m_alloc_context", optional = true) AllocContext inlineAllocContext();

    @Has("m_alloc_context") boolean hasInlineAllocContext();

    /** .NET 9+: pointer to the thread's {@code RuntimeThreadLocals}. */
    @Field(value = "RuntimeThreadLocals", optional = true) long runtimeThreadLocals();

    @Has("RuntimeThreadLocals") boolean hasRuntimeThreadLocals();

    interface Writable extends NativeThread, WritableStructView {
        @Field("State") void state(int value);

        @Field("PreemptiveGCDisabled") void preemptiveGcDisabled(int value);

        @Field("Frame") void frame(long value);

        @Field("Id") void id(int value);

        @Field(value = "OSId", optional = true) void osId(long value);

        @Field("LinkNext") void linkNext(long value);

        @Override
        @Field(value = "m_alloc_context", optional = true) AllocContext.Writable inlineAllocContext();

        @Field(value = "RuntimeThreadLocals", optional = true) void runtimeThreadLocals(long value);
    }
}
