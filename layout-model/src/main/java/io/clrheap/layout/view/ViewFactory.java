package io.clrheap.layout.view;

import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.FieldType;
import io.clrheap.layout.LayoutException;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.TypeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.WritableMemory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.HashMap;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.subclass.ConstructorStrategy;
import net.bytebuddy.implementation.FieldAccessor;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.MethodCall;
import net.bytebuddy.implementation.bytecode.ByteCodeAppender;
import net.bytebuddy.implementation.bytecode.Duplication;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.Throw;
import net.bytebuddy.implementation.bytecode.TypeCreation;
import net.bytebuddy.implementation.bytecode.constant.IntegerConstant;
import net.bytebuddy.implementation.bytecode.constant.LongConstant;
import net.bytebuddy.implementation.bytecode.constant.TextConstant;
import net.bytebuddy.implementation.bytecode.member.FieldAccess;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.implementation.bytecode.member.MethodReturn;
import net.bytebuddy.implementation.bytecode.member.MethodVariableAccess;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Generates, for one {@link RuntimeLayout}, implementations of view interfaces ({@link Struct}-annotated
 * interfaces with {@link Field} methods) whose methods read the bound memory at constant offsets: the field
 * offsets are resolved once, when a view type is first bound, and compiled into the class.
 *
 * <p>Binding fails at once, with the profile, structure, field and method named, when a non-optional field
 * is missing or a method's type cannot hold the field. One factory belongs to one target; factories of
 * different runtime versions coexist in one JVM.
 *
 * <p>Long because the read-only view and its writable twin are generated from the same binding checks and the same
 * per-method code templates: one generator, whose halves would otherwise duplicate them.
 */
public final class ViewFactory {

    private final RuntimeLayout layout;
    private final Map<Class<?>, Generated> generated = new HashMap<>();
    /** The factory's own class loader: its generated classes are unloaded with it. */
    private final GeneratedViewLoader loader = new GeneratedViewLoader(ViewFactory.class.getClassLoader());

    public ViewFactory(RuntimeLayout layout) {
        this.layout = layout;
    }

    /** Defines the generated view classes of one factory; they see the view interfaces through the parent. */
    private static final class GeneratedViewLoader extends ClassLoader {
        GeneratedViewLoader(ClassLoader parent) {
            super(parent);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    public RuntimeLayout layout() {
        return layout;
    }

    /** Binds {@code view} to {@code memory}. Writable views need a {@link WritableMemory}. */
    public <T extends StructView> ViewType<T> bind(Class<T> view, Memory memory) {
        Generated g = generate(view);
        if (g.writable && !(memory instanceof WritableMemory)) {
            throw new LayoutException(view.getSimpleName() + " is a writable view; " + memory.describe() + " is read-only");
        }
        try {
            StructView prototype = (StructView) g.constructor.invoke(memory, 0L);
            return new ViewType<>(view, g.type, prototype);
        } catch (Throwable e) {
            throw new LayoutException("cannot instantiate the generated " + view.getSimpleName() + " view", e);
        }
    }

    /** Shorthand: the view of the structure at {@code address}. */
    public <T extends StructView> T view(Class<T> view, Memory memory, long address) {
        return bind(view, memory).at(address);
    }

    private record Generated(Class<?> implementation, TypeLayout type, boolean writable, MethodHandle constructor) {
    }

    /** Synchronized: a view is generated once per factory (generating one re-enters for the views it embeds). */
    private synchronized Generated generate(Class<?> view) {
        Generated g = generated.get(view);
        if (g == null) {
            g = define(view);
            generated.put(view, g);
        }
        return g;
    }

    private Generated define(Class<?> view) {
        if (!view.isInterface() || !StructView.class.isAssignableFrom(view)) {
            throw new LayoutException(view.getName() + " is not a view interface (an interface extending StructView)");
        }
        Struct struct = structOf(view);
        if (struct == null) {
            throw new LayoutException(view.getName() + " has no @Struct annotation naming its runtime structure");
        }
        TypeLayout type = layout.findType(struct.value()).orElseThrow(() -> new LayoutException(
                view.getSimpleName() + ": structure '" + struct.value() + "' is not in the " + layout.describe() + " profile"));
        boolean writable = WritableStructView.class.isAssignableFrom(view);
        Class<?> memoryType = writable ? WritableMemory.class : Memory.class;
        String name = ViewFactory.class.getPackageName() + ".generated." + view.getName().replace('.', '_') + "$"
                + layout.version().shortName() + "_" + layout.gc().id();

        DynamicType.Builder<?> builder = new ByteBuddy()
                .subclass(Object.class, ConstructorStrategy.Default.NO_CONSTRUCTORS)
                .implement(view)
                .name(name)
                .modifiers(Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL)
                .defineField("memory", memoryType, Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)
                .defineField("address", long.class, Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)
                .defineConstructor(Opcodes.ACC_PUBLIC).withParameters(memoryType, long.class)
                .intercept(invokeObjectConstructor()
                        .andThen(FieldAccessor.ofField("memory").setsArgumentAt(0))
                        .andThen(FieldAccessor.ofField("address").setsArgumentAt(1)))
                .method(ElementMatchers.named("address").and(ElementMatchers.takesArguments(0)))
                .intercept(FieldAccessor.ofField("address"))
                .method(ElementMatchers.named("memory").and(ElementMatchers.takesArguments(0)))
                .intercept(FieldAccessor.ofField("memory"))
                .method(ElementMatchers.named("at").and(ElementMatchers.takesArguments(long.class)))
                .intercept(new Implementation.Simple(new NewSelfAppender(memoryType)))
                .method(ElementMatchers.named("toString").and(ElementMatchers.takesArguments(0)))
                .intercept(new Implementation.Simple(new ToStringAppender(type.name())));

        for (Method m : mostSpecificMethods(view)) {
            Field field = m.getAnnotation(Field.class);
            Has has = m.getAnnotation(Has.class);
            if (field != null) {
                builder = builder.method(ElementMatchers.is(m)).intercept(
                        new Implementation.Simple(fieldAccess(view, m, field, type, writable)));
            } else if (has != null) {
                if (m.getReturnType() != boolean.class || m.getParameterCount() != 0) {
                    throw new LayoutException(where(view, m) + ": @Has methods must be boolean and take no arguments");
                }
                boolean present = type.findField(has.value()).isPresent();
                builder = builder.method(ElementMatchers.is(m)).intercept(new Implementation.Simple(
                        IntegerConstant.forValue(present), MethodReturn.INTEGER));
            } else if (!isBaseMethod(m)) {
                throw new LayoutException(where(view, m) + " has neither @Field nor @Has");
            }
        }

        Class<?> implementation;
        try (DynamicType.Unloaded<?> unloaded = builder.make()) {
            // one loader per factory: generated views can refer to the views they embed, and are unloaded together
            implementation = loader.define(name, unloaded.getBytes());
        }
        try {
            MethodHandle ctor = MethodHandles.publicLookup().findConstructor(implementation,
                    MethodType.methodType(void.class, memoryType, long.class));
            return new Generated(implementation, type, writable,
                    ctor.asType(MethodType.methodType(Object.class, Memory.class, long.class)));
        } catch (ReflectiveOperationException e) {
            throw new LayoutException("generated view " + name + " has no (Memory, long) constructor", e);
        }
    }

    /** The {@link Struct} of a view interface, also when declared on an interface it extends (Writable twins). */
    static Struct structOf(Class<?> view) {
        Struct s = view.getAnnotation(Struct.class);
        if (s != null) {
            return s;
        }
        for (Class<?> parent : view.getInterfaces()) {
            s = structOf(parent);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /**
     * The abstract methods to implement: where a writable twin narrows a method's return type (an embedded view
     * becoming writable), only the narrowest one; Byte Buddy bridges the others to it.
     */
    private static List<Method> mostSpecificMethods(Class<?> view) {
        Map<String, Method> chosen = new java.util.LinkedHashMap<>();
        for (Method m : view.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isDefault()) {
                continue;
            }
            String key = m.getName() + java.util.Arrays.toString(m.getParameterTypes());
            Method previous = chosen.get(key);
            if (previous == null || previous.getReturnType().isAssignableFrom(m.getReturnType())) {
                chosen.put(key, m);
            }
        }
        return List.copyOf(chosen.values());
    }

    private static MethodCall invokeObjectConstructor() {
        try {
            return MethodCall.invoke(Object.class.getConstructor());
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean isBaseMethod(Method m) {
        return (m.getName().equals("address") || m.getName().equals("memory") || m.getName().equals("at"))
                && m.getDeclaringClass() == StructView.class;
    }

    private String where(Class<?> view, Method m) {
        return view.getSimpleName() + "." + m.getName() + "() [" + layout.describe() + "]";
    }

    /** Builds the byte code of one {@link Field} method after checking it against the profile. */
    private ByteCodeAppender fieldAccess(Class<?> view, Method m, Field annotation, TypeLayout type, boolean writable) {
        Optional<FieldLayout> found = type.findField(annotation.value());
        if (found.isEmpty()) {
            if (annotation.optional()) {
                return new ThrowAppender(type.name() + "." + annotation.value() + " is not in the " + layout.describe()
                        + " profile (check " + view.getSimpleName() + " with a @Has method first)");
            }
            throw new LayoutException(where(view, m) + ": field '" + type.name() + "." + annotation.value()
                    + "' is not in the profile");
        }
        FieldLayout f = found.get();
        Class<?>[] params = m.getParameterTypes();
        boolean indexed = params.length >= 1 && params[0] == int.class && f.type().array();
        int valueParams = params.length - (indexed ? 1 : 0);
        if (f.type().array() && !indexed) {
            throw new LayoutException(where(view, m) + ": " + type.name() + "." + f.name() + " is an array ("
                    + f.type().name() + "); the method must take an int index first");
        }
        boolean write = m.getReturnType() == void.class;
        if (write && (!writable || valueParams != 1)) {
            throw new LayoutException(where(view, m) + ": a void @Field method writes one value and needs a WritableStructView");
        }
        if (!write && valueParams != 0) {
            throw new LayoutException(where(view, m) + ": a reading @Field method takes no value argument");
        }
        Access access = new Access(f.offset(), indexed ? f.elementSize() : 0, indexed ? f.type().count() : 0);
        if (!f.type().isPrimitive() && !write && m.getReturnType() == long.class) {
            return new AddressAppender(access); // the address of an embedded structure, whatever its type
        }
        if (!f.type().isPrimitive()) {
            if (write) {
                throw new LayoutException(where(view, m) + ": " + f.name() + " is an embedded structure; write its fields through its view");
            }
            Class<?> embedded = m.getReturnType();
            Struct s = structOf(embedded);
            if (s == null || !StructView.class.isAssignableFrom(embedded) || !s.value().equals(f.type().element())) {
                throw new LayoutException(where(view, m) + ": " + f.name() + " embeds " + f.type().element()
                        + "; the method must return the view interface annotated @Struct(\"" + f.type().element() + "\")");
            }
            Generated inner = generate(embedded);
            if (inner.writable != writable) {
                throw new LayoutException(where(view, m) + ": a " + (writable ? "writable" : "read-only")
                        + " view must embed a " + (writable ? "writable" : "read-only") + " view");
            }
            return new EmbeddedAppender(access, inner.implementation, writable ? WritableMemory.class : Memory.class);
        }
        FieldType.Primitive p = f.type().primitive();
        Class<?> javaType = write ? params[params.length - 1] : m.getReturnType();
        int javaWidth = widthOf(javaType);
        if (javaWidth < 0 || (javaType != boolean.class && javaWidth < p.size())) {
            throw new LayoutException(where(view, m) + ": " + type.name() + "." + f.name() + " is " + f.type().element()
                    + " (" + p.size() + " bytes); " + javaType.getSimpleName() + " cannot hold it");
        }
        return write ? new WriteAppender(access, p, javaType) : new ReadAppender(access, p, javaType);
    }

    private static int widthOf(Class<?> c) {
        if (c == long.class) {
            return 8;
        }
        if (c == int.class) {
            return 4;
        }
        if (c == short.class || c == char.class) {
            return 2;
        }
        if (c == byte.class || c == boolean.class) {
            return 1;
        }
        return -1;
    }

    /** Where a field is: constant offset, plus index × element size for arrays (bounds-checked). */
    private record Access(long offset, long elementSize, int count) {

        boolean indexed() {
            return count > 0;
        }

        /** Pushes memory, then address + offset (+ index × elementSize) as a long. */
        List<StackManipulation> pushMemoryAndAddress(TypeDescription self) {
            List<StackManipulation> code = new ArrayList<>();
            code.add(MethodVariableAccess.loadThis());
            code.add(FieldAccess.forField(self.getDeclaredFields().filter(ElementMatchers.named("memory")).getOnly()).read());
            code.add(pushAddress(self));
            return code;
        }

        StackManipulation pushAddress(TypeDescription self) {
            List<StackManipulation> code = new ArrayList<>();
            code.add(MethodVariableAccess.loadThis());
            code.add(FieldAccess.forField(self.getDeclaredFields().filter(ElementMatchers.named("address")).getOnly()).read());
            code.add(LongConstant.forValue(offset));
            code.add(Insn.LADD);
            if (indexed()) {
                code.add(MethodVariableAccess.INTEGER.loadFrom(1));
                code.add(IntegerConstant.forValue(count));
                code.add(MethodInvocation.invoke(method(java.util.Objects.class, "checkIndex", int.class, int.class)));
                code.add(Insn.I2L);
                code.add(LongConstant.forValue(elementSize));
                code.add(Insn.LMUL);
                code.add(Insn.LADD);
            }
            return new StackManipulation.Compound(code);
        }
    }

    private static MethodDescription.InDefinedShape method(Class<?> owner, String name, Class<?>... params) {
        try {
            return new MethodDescription.ForLoadedMethod(owner.getMethod(name, params));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Size finish(MethodVisitor mv, Implementation.Context ctx, MethodDescription method, List<StackManipulation> code) {
        StackManipulation.Size size = new StackManipulation.Compound(code).apply(mv, ctx);
        return new Size(size.getMaximalSize(), method.getStackSize());
    }

    private record Size(int stack, int locals) {
    }

    /** Reads a primitive field and converts it to the method's return type. */
    private record ReadAppender(Access access, FieldType.Primitive primitive, Class<?> returnType) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            List<StackManipulation> code = access.pushMemoryAndAddress(ctx.getInstrumentedType());
            boolean wide = primitive.size() == 8;
            switch (primitive.size()) {
                case 8 -> code.add(MethodInvocation.invoke(method(Memory.class, "readLong", long.class)));
                case 4 -> code.add(MethodInvocation.invoke(method(Memory.class, "readInt", long.class)));
                case 2 -> code.add(MethodInvocation.invoke(method(Memory.class, "readShort", long.class)));
                default -> code.add(MethodInvocation.invoke(method(Memory.class, "readByte", long.class)));
            }
            if (returnType == boolean.class) {
                code.add(MethodInvocation.invoke(method(ViewSupport.class, "isTrue", wide ? long.class : int.class)));
                code.add(MethodReturn.INTEGER);
            } else if (returnType == long.class) {
                if (!wide) {
                    if (!primitive.signed()) {
                        code.add(primitive.size() == 4
                                ? MethodInvocation.invoke(method(Integer.class, "toUnsignedLong", int.class))
                                : new StackManipulation.Compound(zeroExtend(primitive.size()), Insn.I2L));
                    } else {
                        code.add(Insn.I2L);
                    }
                }
                code.add(MethodReturn.LONG);
            } else {
                if (!primitive.signed() && primitive.size() < widthOf(returnType)) {
                    code.add(zeroExtend(primitive.size()));
                }
                code.add(MethodReturn.INTEGER);
            }
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }

        private static StackManipulation zeroExtend(int size) {
            return new StackManipulation.Compound(IntegerConstant.forValue(size == 1 ? 0xff : 0xffff), Insn.IAND);
        }
    }

    /** Writes the method's last argument to a primitive field. */
    private record WriteAppender(Access access, FieldType.Primitive primitive, Class<?> valueType) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            List<StackManipulation> code = access.pushMemoryAndAddress(ctx.getInstrumentedType());
            int slot = access.indexed() ? 2 : 1;
            boolean wideValue = valueType == long.class;
            code.add(wideValue ? MethodVariableAccess.LONG.loadFrom(slot) : MethodVariableAccess.INTEGER.loadFrom(slot));
            if (primitive.size() == 8) {
                if (!wideValue) {
                    code.add(Insn.I2L);
                }
                code.add(MethodInvocation.invoke(method(WritableMemory.class, "writeLong", long.class, long.class)));
            } else {
                if (wideValue) {
                    code.add(Insn.L2I);
                }
                code.add(switch (primitive.size()) {
                    case 4 -> MethodInvocation.invoke(method(WritableMemory.class, "writeInt", long.class, int.class));
                    case 2 -> new StackManipulation.Compound(Insn.I2S,
                            MethodInvocation.invoke(method(WritableMemory.class, "writeShort", long.class, short.class)));
                    default -> new StackManipulation.Compound(Insn.I2B,
                            MethodInvocation.invoke(method(WritableMemory.class, "writeByte", long.class, byte.class)));
                });
            }
            code.add(MethodReturn.VOID);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** Returns the address of an embedded structure: {@code address + offset}. */
    private record AddressAppender(Access access) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            List<StackManipulation> code = new ArrayList<>();
            code.add(access.pushAddress(ctx.getInstrumentedType()));
            code.add(MethodReturn.LONG);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** Returns a view of an embedded structure: {@code new Inner(memory, address + offset)}. */
    private record EmbeddedAppender(Access access, Class<?> inner, Class<?> memoryType) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            TypeDescription innerType = TypeDescription.ForLoadedType.of(inner);
            List<StackManipulation> code = new ArrayList<>();
            code.add(TypeCreation.of(innerType));
            code.add(Duplication.SINGLE);
            code.addAll(access.pushMemoryAndAddress(ctx.getInstrumentedType()));
            code.add(MethodInvocation.invoke(innerType.getDeclaredMethods()
                    .filter(ElementMatchers.isConstructor().and(ElementMatchers.takesArguments(memoryType, long.class))).getOnly()));
            code.add(MethodReturn.REFERENCE);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** {@code at(address)}: {@code new Self(memory, address)}. */
    private record NewSelfAppender(Class<?> memoryType) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            TypeDescription self = ctx.getInstrumentedType();
            List<StackManipulation> code = new ArrayList<>();
            code.add(TypeCreation.of(self));
            code.add(Duplication.SINGLE);
            code.add(MethodVariableAccess.loadThis());
            code.add(FieldAccess.forField(self.getDeclaredFields().filter(ElementMatchers.named("memory")).getOnly()).read());
            code.add(MethodVariableAccess.LONG.loadFrom(1));
            code.add(MethodInvocation.invoke(self.getDeclaredMethods()
                    .filter(ElementMatchers.isConstructor().and(ElementMatchers.takesArguments(2))).getOnly()));
            code.add(MethodReturn.REFERENCE);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** {@code toString()}: the structure's name and address. */
    private record ToStringAppender(String structure) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            TypeDescription self = ctx.getInstrumentedType();
            List<StackManipulation> code = new ArrayList<>();
            code.add(new TextConstant(structure));
            code.add(MethodVariableAccess.loadThis());
            code.add(FieldAccess.forField(self.getDeclaredFields().filter(ElementMatchers.named("address")).getOnly()).read());
            code.add(MethodInvocation.invoke(method(ViewSupport.class, "describe", String.class, long.class)));
            code.add(MethodReturn.REFERENCE);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** An optional field the profile lacks: the method throws a {@link LayoutException} saying so. */
    private record ThrowAppender(String message) implements ByteCodeAppender {
        @Override
        public ByteCodeAppender.Size apply(MethodVisitor mv, Implementation.Context ctx, MethodDescription method) {
            TypeDescription exception = TypeDescription.ForLoadedType.of(LayoutException.class);
            List<StackManipulation> code = List.of(
                    TypeCreation.of(exception),
                    Duplication.SINGLE,
                    new TextConstant(message),
                    MethodInvocation.invoke(exception.getDeclaredMethods()
                            .filter(ElementMatchers.isConstructor().and(ElementMatchers.takesArguments(String.class))).getOnly()),
                    Throw.INSTANCE);
            var s = finish(mv, ctx, method, code);
            return new ByteCodeAppender.Size(s.stack(), s.locals());
        }
    }

    /** Single JVM instructions Byte Buddy has no named stack manipulation for. */
    private enum Insn implements StackManipulation {
        LADD(Opcodes.LADD, -2), LMUL(Opcodes.LMUL, -2), IAND(Opcodes.IAND, -1),
        I2L(Opcodes.I2L, 1), L2I(Opcodes.L2I, -1), I2S(Opcodes.I2S, 0), I2B(Opcodes.I2B, 0);

        private final int opcode;
        private final int sizeImpact;

        Insn(int opcode, int sizeImpact) {
            this.opcode = opcode;
            this.sizeImpact = sizeImpact;
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public StackManipulation.Size apply(MethodVisitor mv, Implementation.Context ctx) {
            mv.visitInsn(opcode);
            return new StackManipulation.Size(sizeImpact, Math.max(sizeImpact, 0));
        }
    }
}
