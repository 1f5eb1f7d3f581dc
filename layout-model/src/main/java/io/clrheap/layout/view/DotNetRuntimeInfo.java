package io.clrheap.layout.view;

/** {@code DotNetRuntimeInfo}: exported by single-file hosts; names the runtime build. */
@Struct("DotNetRuntimeInfo")
public interface DotNetRuntimeInfo extends StructView {

    /** A byte of the signature {@code "DotNetRuntimeInfo\0"}. */
    @Field("Signature") int signature(int index);

    /** The structure's version; {@code RuntimeVersion} exists from 2. */
    @Field("Version") int version();

    /** major, minor, build, revision. */
    @Field("RuntimeVersion") int runtimeVersion(int index);

    interface Writable extends DotNetRuntimeInfo, WritableStructView {
        @Field("Signature") void signature(int index, int value);

        @Field("Version") void version(int value);

        @Field("RuntimeVersion") void runtimeVersion(int index, int value);
    }
}
