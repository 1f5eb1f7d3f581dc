package io.clrheap.layout.view;

/** {@code MethodTable} (methodtable.h), x64 release layout. */
@Struct("MethodTable")
public interface MethodTable extends StructView {

    /** Flags; the low 16 bits are the component size when {@code method_table.flags.has_component_size} is set. */
    @Field("MTFlags") int flags();

    /** Instance size including the object header. */
    @Field("BaseSize") int baseSize();

    @Field("MTFlags2") int flags2();

    @Field("NumVirtuals") int numVirtuals();

    @Field("NumInterfaces") int numInterfaces();

    @Field("ParentMethodTable") long parentMethodTable();

    @Field("Module") long module();

    @Field("AuxiliaryData") long auxiliaryData();

    /** Low bit 1: canonical MethodTable; else {@code EEClass*}. */
    @Field("EEClassOrCanonMT") long eeClassOrCanonMt();

    /** For arrays: the element TypeHandle. */
    @Field("PerInstInfo") long perInstInfo();

    interface Writable extends MethodTable, WritableStructView {
        @Field("MTFlags") void flags(int value);

        @Field("BaseSize") void baseSize(int value);

        @Field("MTFlags2") void flags2(int value);

        @Field("NumVirtuals") void numVirtuals(int value);

        @Field("NumInterfaces") void numInterfaces(int value);

        @Field("ParentMethodTable") void parentMethodTable(long value);

        @Field("Module") void module(long value);

        @Field("AuxiliaryData") void auxiliaryData(long value);

        @Field("EEClassOrCanonMT") void eeClassOrCanonMt(long value);

        @Field("PerInstInfo") void perInstInfo(long value);
    }
}
