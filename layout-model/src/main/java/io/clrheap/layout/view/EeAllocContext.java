package io.clrheap.layout.view;

/** {@code ee_alloc_context} (.NET 10): the VM's wrapper of a {@code gc_alloc_context} with a sampling limit. */
@Struct("ee_alloc_context")
public interface EeAllocContext extends StructView {

    /** min(alloc_limit, sampling limit); equals alloc_limit when allocation sampling is off. */
    @Field("m_CombinedLimit") long combinedLimit();

    @Field("m_GCAllocContext") AllocContext gcAllocContext();

    interface Writable extends EeAllocContext, WritableStructView {
        @Field("m_CombinedLimit") void combinedLimit(long value);

        @Override
        @Field("m_GCAllocContext") AllocContext.Writable gcAllocContext();
    }
}
