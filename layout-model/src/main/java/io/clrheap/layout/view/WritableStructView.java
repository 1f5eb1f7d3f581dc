package io.clrheap.layout.view;

/**
 * A view whose {@code void} {@link Field} methods write the structure; bound over a
 * {@link io.clrheap.memory.WritableMemory}. The emulator builds process images through these.
 */
public interface WritableStructView extends StructView {
}
