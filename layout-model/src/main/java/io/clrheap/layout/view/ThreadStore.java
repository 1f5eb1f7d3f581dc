package io.clrheap.layout.view;

/** {@code ThreadStore} ({@code *s_pThreadStore}): the list of the runtime's threads. */
@Struct("ThreadStore")
public interface ThreadStore extends StructView {

    /** The first thread's {@code m_Link} address (not the Thread's), or 0. */
    @Field("FirstThreadLink") long firstThreadLink();

    @Field("ThreadCount") int threadCount();

    @Field(value = "UnstartedCount", optional = true) int unstartedCount();

    @Field(value = "BackgroundCount", optional = true) int backgroundCount();

    @Field(value = "PendingCount", optional = true) int pendingCount();

    @Field(value = "DeadCount", optional = true) int deadCount();

    @Has("DeadCount") boolean hasCounts();

    interface Writable extends ThreadStore, WritableStructView {
        @Field("FirstThreadLink") void firstThreadLink(long value);

        @Field("ThreadCount") void threadCount(int value);

        @Field(value = "UnstartedCount", optional = true) void unstartedCount(int value);

        @Field(value = "BackgroundCount", optional = true) void backgroundCount(int value);

        @Field(value = "PendingCount", optional = true) void pendingCount(int value);

        @Field(value = "DeadCount", optional = true) void deadCount(int value);
    }
}
