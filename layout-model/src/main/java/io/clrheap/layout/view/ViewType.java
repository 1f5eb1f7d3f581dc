package io.clrheap.layout.view;

import io.clrheap.layout.TypeLayout;

/**
 * A view interface bound to one profile and one memory: makes views at addresses.
 *
 * @param <T> the view interface
 */
public final class ViewType<T extends StructView> {

    private final Class<T> viewInterface;
    private final TypeLayout layout;
    private final StructView prototype;

    ViewType(Class<T> viewInterface, TypeLayout layout, StructView prototype) {
        this.viewInterface = viewInterface;
        this.layout = layout;
        this.prototype = prototype;
    }

    /** The view of the structure at {@code address}. */
    public T at(long address) {
        return viewInterface.cast(prototype.at(address));
    }

    /** The structure's layout in the bound profile. */
    public TypeLayout layout() {
        return layout;
    }

    /** The structure's size, or the end of its last known field when the profile leaves the size open. */
    public long extent() {
        return layout.extent();
    }

    public Class<T> viewInterface() {
        return viewInterface;
    }
}
