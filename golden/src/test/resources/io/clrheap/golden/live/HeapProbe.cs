// clrheap's live-process test program (DotnetTestProcess compiles it with Debian's mcs at test time).
//
// It allocates known objects, keeps them alive from a static root, forces full GCs so that the first ones are in
// gen2 and the later ones in gen0, prints one line per object and READY on stdout, then waits for a line (or end of
// file) on stdin and ends the process.
//
// Output lines (ASCII, one space between fields):
//   PID pid
//   RUNTIME version-of-CoreLib
//   VERSION Environment.Version     the runtime's build, e.g. 8.0.30 (or unknown)
//   GC server|workstation|unknown   (unknown: the trimmed 10.0 CoreLib has neither GC.GetConfigurationVariables nor GCSettings)
//   GCCONFIG key value           what GC.GetConfigurationVariables() says (.NET 7+), one line per variable
//   HEAPS n                      the GC heap count, when the program can tell
//   OBJ label 0xaddress 0xmethodtable size type generation
//   FIELD label name value          an instance field of a reported object, its value read by reflection
//   FIELD-ASSIGNED label name value the value the program assigned, where the CoreLib lacks that reflection
//   READY
// FIELD lines (after every OBJ line) cover the objects of this program's own types (ProbeNode, ProbeDerived and its
// base ProbeBase, boxed ProbePoint and ProbeEdge, the elements of a ProbePoint[]; of the many small.N nodes only the
// first ten): every instance field the type and its base types declare, found with Type.GetFields(Instance | Public |
// NonPublic | DeclaredOnly) along BaseType, read with FieldInfo.GetValue. name is the field's name; a struct's fields
// are listed by path (Corner.X, Edge.From.Y) and an array element's by index ([2].X). value is spelled as clrheap's
// dumpobj spells it (FieldValueText) where that needs no formatting code of the runtime: a decimal integer (an enum's
// underlying value, a bool 1 or 0, a char its UTF-16 code), null, the label of the referenced object, or "text" for
// a string (the text in double quotes, the rest of the line). A double or float is printed as its IEEE bits,
// r8:16-hex-digits or r4:8-hex-digits, which the test turns into dumpobj's spelling of the same number
// (Double.toString): Java's and C#'s shortest round-trip spellings differ ("3" and "3.0"), the bits do not.
// Where reflection is trimmed away (Type.GetFields or FieldInfo.GetValue missing) the program prints, as
// FIELD-ASSIGNED lines, only the values it assigned itself, kept in a list as it assigned them.
//
// size is BaseSize + component count x component size, unaligned: what a heap walker reports (an empty string 22).
// generation is GC.GetGeneration (2147483647 for an object in a frozen segment, such as a string literal), -1 where
// the runtime's CoreLib was trimmed without it.
//
// The same source runs as a startup hook (8 and 9: compiled against Mono's mscorlib, which forwards to
// System.Private.CoreLib) and as the main program of a single-file bundle (10: compiled with -nostdlib against the
// .NET Core 2.0 System.Private.CoreLib). So it uses only what CoreLib 2.0 has, reaches newer APIs by reflection, and
// does its I/O through libc, or through kernel32 when compiled with -define:WINDOWS for the Windows builds that
// WineTestProcess runs (PID is then the Windows process id, GetCurrentProcessId).
//
// Trimmed CoreLibs (single-file azmcp) lack different members from build to build (GC.GetGeneration in 9.0.7 and
// 10.0.5, String.Concat(object, object) in 9.0.11 and 10.0.0): the JIT throws MissingMethodException when it compiles
// a method that calls a missing one, so such calls sit in small methods of their own (Try*), called inside try/catch,
// and strings are joined by Cat (String.Concat(string, string) is in every build). A Try* is called only when
// reflection finds its members (HasMethod): under Wine 8, a MissingMethodException thrown by the JIT of Windows 10.0.9
// (whose CoreLib lacks GC.GetGeneration) reached the catch twice, then the unwinder looped on access violations.

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;

public class ProbeNode
{
    public int Number;
    public long Wide;
    public double Real;
    public string Name;
    public ProbeNode Next;
    public object Payload;
}

public struct ProbePoint
{
    public int X;
    public int Y;
}

public enum ProbeColour
{
    Red = 1,
    Green = 2,
    Blue = 300
}

public enum ProbeSize : byte
{
    Small = 3,
    Large = 250
}

// a struct with a nested struct and references in it: the runtime lays out such a struct's fields itself (auto layout)
public struct ProbeEdge
{
    public ProbePoint From;
    public ProbePoint To;
    public string Name;
    public ProbeNode Target;
    public long Weight;
}

public class ProbeBase
{
    public int BaseNumber;
    protected string BaseName;
    private long hidden;

    public void Set(int number, string name, long secret)
    {
        BaseNumber = number;
        BaseName = name;
        hidden = secret;
    }
}

// fields of every kind dumpobj spells, and a base class with fields (a private one among them)
public class ProbeDerived : ProbeBase
{
    public bool Flag;
    public bool Unset;
    public char Letter;
    public float Ratio;
    public double Negative;
    public short Small;
    public sbyte Tiny;
    public byte Octet;
    public ushort Unsigned16;
    public uint Unsigned32;
    public ProbeColour Colour;
    public ProbeSize Size;
    public ProbePoint Corner;
    public ProbeEdge Edge;
    public object Boxed;
    public ProbeNode Node;
    public int[] Numbers;
}

public static unsafe class HeapProbe
{
#if WINDOWS
    // Windows (the tests run it under Wine): kernel32 on the standard handles, which are the pipes the test made.
    // Handles and the OVERLAPPED pointer are void*, not IntPtr: IntPtr's members are trimmed from 10.0's CoreLib.
    const int StdInputHandle = -10; // STD_INPUT_HANDLE, winbase.h
    const int StdOutputHandle = -11; // STD_OUTPUT_HANDLE
    [DllImport("kernel32.dll")] static extern void* GetStdHandle(int which);
    [DllImport("kernel32.dll")] static extern int WriteFile(void* file, byte* buffer, int count, int* written, void* overlapped);
    [DllImport("kernel32.dll")] static extern int ReadFile(void* file, byte* buffer, int count, int* read, void* overlapped);
    [DllImport("kernel32.dll")] static extern int GetCurrentProcessId();
    [DllImport("kernel32.dll")] static extern void ExitProcess(int status);

    static long WriteOut(byte* buffer, int count)
    {
        int written = 0;
        return WriteFile(GetStdHandle(StdOutputHandle), buffer, count, &written, null) != 0 ? written : -1;
    }

    // 0 at end of file: ReadFile on a pipe whose writer closed fails with ERROR_BROKEN_PIPE
    static long ReadIn(byte* buffer, int count)
    {
        int read = 0;
        return ReadFile(GetStdHandle(StdInputHandle), buffer, count, &read, null) != 0 ? read : 0;
    }

    static int ProcessId()
    {
        return GetCurrentProcessId();
    }

    static void Terminate(int status)
    {
        ExitProcess(status);
    }
#else
    [DllImport("libc.so.6")] static extern long write(int fd, byte* buffer, long count); // size_t and ssize_t are 64-bit on x64
    [DllImport("libc.so.6")] static extern long read(int fd, byte* buffer, long count);
    [DllImport("libc.so.6")] static extern int getpid();
    [DllImport("libc.so.6")] static extern void _exit(int status);

    static long WriteOut(byte* buffer, int count)
    {
        return write(1, buffer, count);
    }

    static long ReadIn(byte* buffer, int count)
    {
        return read(0, buffer, count);
    }

    static int ProcessId()
    {
        return getpid();
    }

    static void Terminate(int status)
    {
        _exit(status);
    }
#endif

    const int SmallObjects = 3000;

    // the roots: every reported object stays reachable from here until the process ends
    static object[] objects;
    static string[] labels;
    static string[] types;
    static int[] generations;
    static int count;
    static long[] addresses;
    static GCHandle pinHandle;

    static byte[] output = new byte[1 << 20];
    static int outputLength;

    // of the small.N objects, the first ones (small.0 to small.9) have their fields reported
    const int ReportedSmallObjects = 10;
    static int firstSmall;

    // "label name value" for every value the program assigns through Int, Real, Single, Text, Ref and Bool: the
    // FIELD-ASSIGNED lines, printed where reflection is trimmed away
    static List<string> assigned = new List<string>();

    static void Assigned(string label, string name, string value)
    {
        assigned.Add(Cat(Cat(Cat(label, " "), Cat(name, " ")), value));
    }

    static long Int(string label, string name, long value)
    {
        Assigned(label, name, Decimal(value));
        return value;
    }

    static double Real(string label, string name, double value)
    {
        Assigned(label, name, R8(value));
        return value;
    }

    static float Single(string label, string name, float value)
    {
        Assigned(label, name, R4(value));
        return value;
    }

    static bool Bool(string label, string name, bool value)
    {
        Assigned(label, name, value ? "1" : "0");
        return value;
    }

    static string Text(string label, string name, string value)
    {
        Assigned(label, name, Quoted(value));
        return value;
    }

    static T Ref<T>(string label, string name, T target, string targetLabel) where T : class
    {
        Assigned(label, name, targetLabel);
        return target;
    }

    static ProbeDerived NewDerived(ProbeNode first, ProbeNode second, int[] numbers, object boxedPoint)
    {
        const string label = "derived";
        ProbeDerived d = new ProbeDerived();
        d.Set((int) Int(label, "BaseNumber", -7), Text(label, "BaseName", "base name"), Int(label, "hidden", 0x0102030405060708L));
        d.Flag = Bool(label, "Flag", true);
        d.Letter = (char) Int(label, "Letter", 'Z');
        d.Ratio = Single(label, "Ratio", 0.375f);
        d.Negative = Real(label, "Negative", -1234.5);
        d.Small = (short) Int(label, "Small", -12345);
        d.Tiny = (sbyte) Int(label, "Tiny", -100);
        d.Octet = (byte) Int(label, "Octet", 200);
        d.Unsigned16 = (ushort) Int(label, "Unsigned16", 65000);
        d.Unsigned32 = (uint) Int(label, "Unsigned32", 4000000000L);
        d.Colour = (ProbeColour) Int(label, "Colour", (long) ProbeColour.Blue);
        d.Size = (ProbeSize) Int(label, "Size", (long) ProbeSize.Large);
        d.Corner.X = (int) Int(label, "Corner.X", 3);
        d.Corner.Y = (int) Int(label, "Corner.Y", 4);
        d.Edge.From.X = (int) Int(label, "Edge.From.X", 5);
        d.Edge.From.Y = (int) Int(label, "Edge.From.Y", 6);
        d.Edge.To.X = (int) Int(label, "Edge.To.X", 7);
        d.Edge.To.Y = (int) Int(label, "Edge.To.Y", 8);
        d.Edge.Name = Text(label, "Edge.Name", "edge in a class");
        d.Edge.Target = Ref(label, "Edge.Target", first, "node.first");
        d.Edge.Weight = Int(label, "Edge.Weight", -9);
        d.Boxed = Ref(label, "Boxed", boxedPoint, "boxed.point");
        d.Node = Ref(label, "Node", second, "node.second");
        d.Numbers = Ref(label, "Numbers", numbers, "ints.10");
        return d;
    }

    static void Keep(string label, object o)
    {
        labels[count] = label;
        objects[count] = o;
        count++;
    }

    public static void Run()
    {
        objects = new object[SmallObjects + 100];
        labels = new string[SmallObjects + 100];
        types = new string[SmallObjects + 100];
        generations = new int[SmallObjects + 100];
        addresses = new long[SmallObjects + 100];

        // old objects: allocated first, then promoted to gen2 by full blocking GCs
        Keep("object", new object());
        Keep("string.empty", string.Empty);
        Keep("string.literal", "clrheap literal");
        Keep("string.heap", string.Concat("clrheap ", "heap string"));
        Keep("bytes.0", new byte[0]);
        Keep("bytes.1", new byte[1]);
        Keep("bytes.7", new byte[7]);
        Keep("bytes.8", new byte[8]);
        Keep("bytes.100", new byte[100]);
        int[] numbers = new int[10];
        for (int i = 0; i < numbers.Length; i++) numbers[i] = i * i;
        Keep("ints.10", numbers);
        Keep("longs.3", new long[] { 1, 2, 3 });
        Keep("chars.5", new char[] { 'h', 'e', 'l', 'l', 'o' });
        ProbePoint[] points = new ProbePoint[4];
        for (int i = 0; i < points.Length; i++)
        {
            string element = Cat(Cat("[", Decimal(i)), "].");
            points[i].X = (int) Int("points.4", Cat(element, "X"), 10 * i + 1);
            points[i].Y = (int) Int("points.4", Cat(element, "Y"), -i);
        }
        Keep("points.4", points);
        Keep("ints.2x3", new int[2, 3]);
        ProbeNode first = new ProbeNode();
        first.Number = (int) Int("node.first", "Number", 42);
        first.Wide = Int("node.first", "Wide", 0x1122334455667788L);
        first.Real = Real("node.first", "Real", 2.5);
        first.Name = Text("node.first", "Name", "first node");
        ProbeNode second = new ProbeNode();
        second.Number = (int) Int("node.second", "Number", 43);
        second.Next = Ref("node.second", "Next", first, "node.first");
        second.Payload = Ref("node.second", "Payload", numbers, "ints.10");
        Keep("node.first", first);
        Keep("node.second", second);
        ProbePoint point = new ProbePoint();
        point.X = (int) Int("boxed.point", "X", 11);
        point.Y = (int) Int("boxed.point", "Y", -12);
        object boxedPoint = point;
        Keep("boxed.point", boxedPoint);
        ProbeEdge edge = new ProbeEdge();
        edge.From.X = (int) Int("boxed.edge", "From.X", 13);
        edge.To.Y = (int) Int("boxed.edge", "To.Y", 14);
        edge.Name = Text("boxed.edge", "Name", "boxed edge");
        edge.Target = Ref("boxed.edge", "Target", second, "node.second");
        edge.Weight = Int("boxed.edge", "Weight", -15);
        Keep("boxed.edge", (object) edge);
        Keep("derived", NewDerived(first, second, numbers, boxedPoint));
        object[] refs = new object[] { first, second, numbers, null, "in an array" };
        Keep("refs.5", refs);
        Keep("boxed.int", (object) 12345);
        Keep("loh.bytes.100000", new byte[100000]);
        byte[] pinned = new byte[256];
        pinHandle = GCHandle.Alloc(pinned, GCHandleType.Pinned);
        Keep("pinned.handle.bytes.256", pinned);

        FullGC();
        FullGC();

        // young objects: allocated after the last GC, in gen0
        Keep("young.object", new object());
        Keep("young.string", string.Concat("young ", "string"));
        Keep("young.bytes.33", new byte[33]);
        Keep("young.refs.3", new object[] { first, null, refs });
        ProbeNode young = new ProbeNode();
        young.Next = Ref("young.node", "Next", second, "node.second");
        young.Name = Text("young.node", "Name", "young node");
        Keep("young.node", young);
        object poh = null;
        try
        {
            poh = PinnedObjectHeapArray(64);
        }
        catch (Exception)
        {
        }
        if (poh != null) Keep("poh.bytes.64", poh);
        ProbeNode chain = null;
        firstSmall = count;
        for (int i = 0; i < SmallObjects; i++)
        {
            object o;
            switch (i % 3)
            {
                case 0:
                    ProbeNode n = new ProbeNode();
                    if (i < ReportedSmallObjects)
                    {
                        string label = Cat("small.", Decimal(i));
                        n.Number = (int) Int(label, "Number", i);
                        n.Next = Ref(label, "Next", chain, chain == null ? "null" : Cat("small.", Decimal(i - 3)));
                    }
                    else
                    {
                        n.Number = i;
                        n.Next = chain;
                    }
                    chain = n;
                    o = n;
                    break;
                case 1:
                    o = new byte[i % 40];
                    break;
                default:
                    o = new object[] { chain };
                    break;
            }
            Keep(Cat("small.", Decimal(i)), o);
        }

        // everything that allocates happens before the addresses are read
        for (int i = 0; i < count; i++) types[i] = TypeName(objects[i]);
        for (int i = 0; i < count; i++) generations[i] = Generation(objects[i]);
        List<string> fields = FieldLines();
        string runtime = RuntimeVersion();
        string build = EnvironmentVersion();
        List<string> config = new List<string>();
        int server = -1; // cannot tell
        int heaps = 0;
        try
        {
            config = GcConfiguration();
            server = IsServerGC(config);
            heaps = HeapCount(config, server);
        }
        catch (Exception)
        {
        }

        Line("PID ", Decimal(ProcessId()));
        Line("RUNTIME ", runtime);
        Line("VERSION ", build);
        Line("GC ", server == 1 ? "server" : server == 0 ? "workstation" : "unknown");
        for (int i = 0; i < config.Count; i++) Line("GCCONFIG ", config[i]);
        if (heaps > 0) Line("HEAPS ", Decimal(heaps));
        Flush();

        // from here on nothing allocates, so no GC moves what was read before it is printed
        for (int i = 0; i < count; i++)
        {
            object o = objects[i];
            TypedReference tr = __makeref(o);
            long address = **(long**) &tr; // not (long) IntPtr: op_Explicit is trimmed from 9.0.11
            addresses[i] = address;
            long mt = *(long*) address;
            uint flags = *(uint*) mt;
            uint baseSize = *(uint*) (mt + 4);
            long size = baseSize;
            if ((flags & 0x80000000u) != 0)
            {
                uint componentSize = flags & 0xFFFF;
                uint components = *(uint*) (address + 8);
                size += (long) components * componentSize;
            }
            Append("OBJ ");
            Append(labels[i]);
            Append(" 0x");
            AppendHex(address);
            Append(" 0x");
            AppendHex(mt);
            Append(" ");
            AppendDecimal(size);
            Append(" ");
            Append(types[i]);
            Append(" ");
            AppendDecimal(generations[i]);
            Append("\n");
            if (outputLength > output.Length - 4096) Flush();
        }
        for (int i = 0; i < fields.Count; i++)
        {
            Append(fields[i]);
            Append("\n");
            if (outputLength > output.Length - 4096) Flush();
        }
        // a GC between reading an address and here would have moved the object: say so rather than lie
        for (int i = 0; i < count; i++)
        {
            object o = objects[i];
            TypedReference tr = __makeref(o);
            if (**(long**) &tr != addresses[i])
            {
                Append("MOVED ");
                Append(labels[i]);
                Append("\n");
                Flush();
                Terminate(4);
            }
        }
        Append("READY\n");
        Flush();

        // wait for a line (or end of file) on stdin, then end the process; the line "busy" instead starts a thread that
        // allocates without end (a busy process: its heap changes all the time), and the program waits on
        byte* one = stackalloc byte[1];
        bool lineStart = true;
        bool busy = false;
        while (true)
        {
            long got = ReadIn(one, 1);
            if (got <= 0) break;
            if (*one == (byte) '\n')
            {
                if (!busy) break;
                try
                {
                    StartChurning();
                }
                catch (Exception)
                {
                }
                busy = false;
                lineStart = true;
                continue;
            }
            if (lineStart && *one == (byte) 'b') busy = true;
            lineStart = false;
        }
        GC.KeepAlive(objects);
    }

    // the FIELD lines: by reflection where CoreLib has it, else FIELD-ASSIGNED lines from what the program assigned
    static List<string> FieldLines()
    {
        List<string> lines = new List<string>();
        bool reflection = HasMethod(typeof(Type), "GetFields", BindingFlags.Instance) && HasMethod(typeof(Type), "get_BaseType", BindingFlags.Instance)
                && HasMethod(typeof(FieldInfo), "GetValue", BindingFlags.Instance) && HasMethod(typeof(FieldInfo), "get_FieldType", BindingFlags.Instance)
                && HasMethod(typeof(FieldInfo), "get_Name", BindingFlags.Instance);
        if (reflection)
        {
            try
            {
                TryReflectedFields(lines);
                return lines;
            }
            catch (Exception)
            {
                lines.Clear();
            }
        }
        for (int i = 0; i < assigned.Count; i++) lines.Add(Cat("FIELD-ASSIGNED ", assigned[i]));
        return lines;
    }

    static void TryReflectedFields(List<string> lines)
    {
        for (int i = 0; i < count; i++)
        {
            if (i >= firstSmall + ReportedSmallObjects) break;
            object o = objects[i];
            if (o is ProbeNode || o is ProbeDerived || o is ProbePoint || o is ProbeEdge) Reflect(lines, labels[i], o, "");
            ProbePoint[] points = o as ProbePoint[];
            if (points != null)
            {
                for (int e = 0; e < points.Length; e++) Reflect(lines, labels[i], points[e], Cat(Cat("[", Decimal(e)), "]."));
            }
        }
    }

    // the instance fields of o's type and of its base types (GetFields without DeclaredOnly leaves out a base's
    // private fields), a struct field's fields under its name
    static void Reflect(List<string> lines, string label, object o, string prefix)
    {
        List<Type> chain = new List<Type>();
        for (Type t = o.GetType(); t != null && (object) t != (object) typeof(object) && (object) t != (object) typeof(ValueType); t = t.BaseType) chain.Insert(0, t);
        for (int c = 0; c < chain.Count; c++)
        {
            FieldInfo[] fields = chain[c].GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly);
            for (int f = 0; f < fields.Length; f++)
            {
                object type = fields[f].FieldType;
                object value = fields[f].GetValue(o);
                string name = Cat(prefix, fields[f].Name);
                if (type == (object) typeof(ProbePoint) || type == (object) typeof(ProbeEdge))
                {
                    Reflect(lines, label, value, Cat(name, "."));
                    continue;
                }
                string text = IsValueField(type) ? Spelled(value) : Referenced(value);
                lines.Add(Cat(Cat(Cat("FIELD ", label), Cat(" ", name)), Cat(" ", text)));
            }
        }
    }

    static bool IsValueField(object type)
    {
        Type[] values = { typeof(bool), typeof(char), typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int), typeof(uint),
                typeof(long), typeof(float), typeof(double), typeof(ProbeColour), typeof(ProbeSize) };
        for (int i = 0; i < values.Length; i++)
        {
            if (type == (object) values[i]) return true;
        }
        return false;
    }

    // a number as dumpobj spells it (floating point as its bits: see the header), without the runtime's formatting
    static string Spelled(object value)
    {
        if (value is bool) return (bool) value ? "1" : "0";
        if (value is char) return Decimal((char) value);
        if (value is sbyte) return Decimal((sbyte) value);
        if (value is byte) return Decimal((byte) value);
        if (value is short) return Decimal((short) value);
        if (value is ushort) return Decimal((ushort) value);
        if (value is int) return Decimal((int) value);
        if (value is uint) return Decimal((uint) value);
        if (value is long) return Decimal((long) value);
        if (value is ProbeColour) return Decimal((long) (ProbeColour) value);
        if (value is ProbeSize) return Decimal((long) (ProbeSize) value);
        if (value is float) return R4((float) value);
        if (value is double) return R8((double) value);
        return "?";
    }

    // null, a string's text in quotes, or the label of the reported object the reference holds
    static string Referenced(object value)
    {
        if (value == null) return "null";
        string s = value as string;
        if (s != null) return Quoted(s);
        for (int i = 0; i < count; i++)
        {
            if (ReferenceEquals(objects[i], value)) return labels[i];
        }
        return "unlabelled";
    }

    static string Quoted(string text)
    {
        return Cat(Cat("\"", text), "\"");
    }

    static string R8(double value)
    {
        return Cat("r8:", Hex(*(long*) &value, 16));
    }

    static string R4(float value)
    {
        return Cat("r4:", Hex(*(uint*) &value, 8));
    }

    // value's low 4 x digits bits in hex, zero-padded to digits
    static string Hex(long value, int digits)
    {
        string[] names = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f" };
        string text = "";
        for (int d = 0; d < digits; d++) text = Cat(names[(int) (((ulong) value >> (4 * d)) & 0xF)], text);
        return text;
    }

    static object[] churn;
    static long churned;
    static MethodInfo sleep;

    // on a thread-pool thread (Thread itself is internal in the .NET Core 2.0 CoreLib the bundle's program compiles against)
    static void StartChurning()
    {
        churn = new object[20000];
        Type thread = typeof(object).Assembly.GetType("System.Threading.Thread");
        sleep = thread == null ? null : thread.GetMethod("Sleep", BindingFlags.Public | BindingFlags.Static, null, new Type[] { typeof(int) }, null);
        System.Threading.Tasks.Task.Run((Action) Churn);
    }

    // drops garbage all the time (millions of objects a second: many gen0 GCs) and replaces a survivor now and then
    // (every 4,096th object, after which it sleeps a millisecond: about a thousand a second), as a busy server might
    static void Churn()
    {
        object[] pause = { 1 };
        for (long i = 0; ; i++)
        {
            object garbage = (i & 1) == 0 ? (object) new byte[(int) (i % 200) + 8] : (object) new object[4];
            if ((i & 4095) == 0)
            {
                churn[(int) ((i >> 12) % churn.Length)] = new ProbeNode();
                if (sleep != null) sleep.Invoke(null, pause);
            }
            churned = i;
        }
    }

    // ends the process the orderly way (the runtime removes its diagnostics socket), when Environment.Exit is there
    public static void Exit()
    {
        try
        {
            // by name: the .NET Core 2.0 CoreLib that 10.0's program compiles against has Environment internal
            Type environment = typeof(object).Assembly.GetType("System.Environment");
            MethodInfo exit = environment == null ? null : environment.GetMethod("Exit", BindingFlags.Public | BindingFlags.Static);
            if (exit != null) exit.Invoke(null, new object[] { 0 });
        }
        catch (Exception)
        {
        }
        Terminate(0);
    }

    // whether CoreLib's type has the public method (a property's getter is get_NAME), looked up by reflection, which
    // returns nothing for a trimmed member instead of throwing
    static bool HasMethod(Type type, string name, BindingFlags binding)
    {
        MethodInfo[] methods = type.GetMethods(BindingFlags.Public | binding);
        for (int i = 0; i < methods.Length; i++)
        {
            if (string.Equals(methods[i].Name, name)) return true;
        }
        return false;
    }

    static int typeNameKnown; // 0 not looked up yet, 1 there, -1 trimmed
    static int generationKnown;
    static int Known(ref int known, Type type, string name, BindingFlags binding)
    {
        if (known == 0) known = HasMethod(type, name, binding) ? 1 : -1;
        return known;
    }

    // Type.FullName, or "?" where the trimmed CoreLib lacks it
    static string TypeName(object o)
    {
        if (Known(ref typeNameKnown, typeof(Type), "get_FullName", BindingFlags.Instance) < 0) return "?";
        try
        {
            return TryTypeName(o);
        }
        catch (Exception)
        {
            return "?";
        }
    }

    static string TryTypeName(object o)
    {
        return o.GetType().FullName;
    }

    // GC.GetGeneration, or -1 where the trimmed CoreLib lacks it
    static int Generation(object o)
    {
        if (Known(ref generationKnown, typeof(GC), "GetGeneration", BindingFlags.Static) < 0) return -1;
        try
        {
            return TryGeneration(o);
        }
        catch (Exception)
        {
            return -1;
        }
    }

    static int TryGeneration(object o)
    {
        return GC.GetGeneration(o);
    }

    // System.Private.CoreLib's assembly version, or "unknown"
    static string RuntimeVersion()
    {
        if (!HasMethod(typeof(Assembly), "GetName", BindingFlags.Instance) || !HasMethod(typeof(AssemblyName), "get_Version", BindingFlags.Instance)
                || !HasMethod(typeof(Version), "ToString", BindingFlags.Instance)) return "unknown";
        try
        {
            return TryRuntimeVersion();
        }
        catch (Exception)
        {
            return "unknown";
        }
    }

    static string TryRuntimeVersion()
    {
        return typeof(object).Assembly.GetName().Version.ToString();
    }

    // Environment.Version, the runtime's build (8.0.30: .NET Core 3.0 on), or "unknown"; by name, as in Exit
    static string EnvironmentVersion()
    {
        Type environment = typeof(object).Assembly.GetType("System.Environment");
        if (environment == null || !HasMethod(environment, "get_Version", BindingFlags.Static)
                || !HasMethod(typeof(Version), "ToString", BindingFlags.Instance)) return "unknown";
        try
        {
            object version = environment.GetMethod("get_Version", BindingFlags.Public | BindingFlags.Static).Invoke(null, null);
            return version == null ? "unknown" : version.ToString();
        }
        catch (Exception)
        {
            return "unknown";
        }
    }

    static string Cat(string a, string b)
    {
        return string.Concat(a, b);
    }

    // a non-negative number in decimal, without Int32.ToString (formatting may be trimmed)
    static string Decimal(long value)
    {
        if (value == 0) return "0";
        string digits = "";
        string[] names = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };
        bool negative = value < 0;
        if (negative) value = -value;
        while (value > 0)
        {
            digits = Cat(names[value % 10], digits);
            value /= 10;
        }
        return negative ? Cat("-", digits) : digits;
    }

    static void FullGC()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    // GC.AllocateArray<T>(length, pinned: true) (.NET 5+) puts the array on the pinned object heap; trimmed runtimes
    // may have only GC.AllocateUninitializedArray<T>
    static object PinnedObjectHeapArray(int length)
    {
        string[] names = { "AllocateArray", "AllocateUninitializedArray" };
        for (int i = 0; i < names.Length; i++)
        {
            try
            {
                MethodInfo method = typeof(GC).GetMethod(names[i], BindingFlags.Public | BindingFlags.Static);
                if (method == null) continue;
                return method.MakeGenericMethod(typeof(byte)).Invoke(null, new object[] { length, true });
            }
            catch (Exception)
            {
            }
        }
        return null;
    }

    // GC.GetConfigurationVariables() (.NET 7+) as "key value" strings, or none
    static List<string> GcConfiguration()
    {
        List<string> lines = new List<string>();
        try
        {
            MethodInfo method = typeof(GC).GetMethod("GetConfigurationVariables", BindingFlags.Public | BindingFlags.Static);
            if (method == null) return lines;
            IEnumerable<KeyValuePair<string, object>> variables = (IEnumerable<KeyValuePair<string, object>>) method.Invoke(null, null);
            foreach (KeyValuePair<string, object> variable in variables)
            {
                lines.Add(Cat(Cat(variable.Key, " "), variable.Value == null ? "null" : variable.Value.ToString()));
            }
        }
        catch (Exception)
        {
        }
        return lines;
    }

    // GCSettings.IsServerGC, which a trimmed CoreLib may lack (10.0's single-file azmcp does): the GC's own
    // configuration first, then GCSettings by reflection
    static int IsServerGC(List<string> config)
    {
        for (int i = 0; i < config.Count; i++)
        {
            if (config[i] == "ServerGC True") return 1;
            if (config[i] == "ServerGC False") return 0;
        }
        try
        {
            Type settings = typeof(GC).Assembly.GetType("System.Runtime.GCSettings");
            if (settings != null)
            {
                PropertyInfo property = settings.GetProperty("IsServerGC", BindingFlags.Public | BindingFlags.Static);
                if (property != null) return (bool) property.GetValue(null, null) ? 1 : 0;
            }
        }
        catch (Exception)
        {
        }
        return -1;
    }

    // 0 when the program cannot tell
    static int HeapCount(List<string> config, int server)
    {
        if (server == 0) return 1;
        for (int i = 0; i < config.Count; i++)
        {
            string line = config[i];
            string[] keys = { "HeapCount ", "GCHeapCount ", "System.GC.HeapCount " };
            for (int k = 0; k < keys.Length; k++)
            {
                if (line.StartsWith(keys[k], StringComparison.Ordinal))
                {
                    int value;
                    if (int.TryParse(line.Substring(keys[k].Length), out value) && value > 0) return value;
                }
            }
        }
        return 0;
    }

    static void Line(string head, string rest)
    {
        Append(head);
        Append(rest);
        Append("\n");
    }

    static void Append(string text)
    {
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            output[outputLength++] = c < 0x80 && c > ' ' || c == ' ' || c == '\n' ? (byte) c : (byte) '?';
        }
    }

    static void AppendHex(long value)
    {
        int digits = 1;
        while (digits < 16 && (ulong) value >> (4 * digits) != 0) digits++;
        for (int d = digits - 1; d >= 0; d--)
        {
            int nibble = (int) (((ulong) value >> (4 * d)) & 0xF);
            output[outputLength++] = (byte) (nibble < 10 ? '0' + nibble : 'a' + nibble - 10);
        }
    }

    static void AppendDecimal(long value)
    {
        if (value < 0)
        {
            output[outputLength++] = (byte) '-';
            value = -value;
        }
        long divisor = 1;
        while (value / divisor >= 10) divisor *= 10;
        for (; divisor > 0; divisor /= 10) output[outputLength++] = (byte) ('0' + value / divisor % 10);
    }

    static void Flush()
    {
        fixed (byte* start = output)
        {
            int done = 0;
            while (done < outputLength)
            {
                long wrote = WriteOut(start + done, outputLength - done);
                if (wrote <= 0) Terminate(3);
                done += (int) wrote;
            }
        }
        outputLength = 0;
    }
}

// .NET 8 and 9: DOTNET_STARTUP_HOOKS runs this before the host application's Main
public class StartupHook
{
    public static void Initialize()
    {
        HeapProbe.Run();
        HeapProbe.Exit(); // not the host application's own Main
    }
}

// .NET 10: the program is the bundle's main assembly
public static class HeapProbeMain
{
    public static int Main(string[] args)
    {
        HeapProbe.Run();
        return 0; // the runtime shuts down the orderly way
    }
}
