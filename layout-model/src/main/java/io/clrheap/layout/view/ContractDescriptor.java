package io.clrheap.layout.view;

/** {@code DotNetRuntimeContractDescriptor} (.NET 9+): the cDAC's entry point. */
@Struct("ContractDescriptor")
public interface ContractDescriptor extends StructView {

    @Field("magic") long magic();

    @Field("flags") int flags();

    @Field("descriptor_size") long descriptorSize();

    /** Address of the UTF-8 compact JSON. */
    @Field("descriptor") long descriptor();

    @Field("pointer_data_count") long pointerDataCount();

    @Field("pointer_data") long pointerData();

    interface Writable extends ContractDescriptor, WritableStructView {
        @Field("magic") void magic(long value);

        @Field("flags") void flags(int value);

        @Field("descriptor_size") void descriptorSize(long value);

        @Field("descriptor") void descriptor(long value);

        @Field("pointer_data_count") void pointerDataCount(long value);

        @Field("pointer_data") void pointerData(long value);
    }
}
