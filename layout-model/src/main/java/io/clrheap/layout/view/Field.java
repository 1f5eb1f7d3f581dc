package io.clrheap.layout.view;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a view method to a field of the structure, by the field's name in the profile.
 *
 * <ul>
 *   <li>{@code long next()}: reads the field (the return type may be wider than the field; unsigned fields are
 *       zero-extended, signed ones sign-extended);</li>
 *   <li>{@code void next(long value)}: writes it (writable views only);</li>
 *   <li>{@code int rgTail(int index)} / {@code void rgTail(int index, int value)}: an element of an array field;</li>
 *   <li>{@code GcAllocContext allocationContext()}: an embedded structure, as a view at the field's address.</li>
 * </ul>
 *
 * A field the profile lacks makes binding fail, unless {@link #optional()}: then the method throws
 * {@link io.clrheap.layout.LayoutException} when called, and a {@link Has} twin tells whether it is there.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Field {
    String value();

    boolean optional() default false;
}
