package io.agni.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link RedisDifferentialTest} reads: the command sequence ({@code differential-commands.txt}, a test
 * resource) and the deliberate differences docs/protocol.md lists between its markers.
 */
final class DifferentialScript
{
    static final String BEGIN = "<!-- differences:begin -->";
    static final String END = "<!-- differences:end -->";

    private static final Pattern STEP = Pattern.compile("([a-z0-9-]+):\\s+(.*)");
    private static final Pattern ROW =
        Pattern.compile("\\|\\s*`([a-z0-9-]+)`\\s*\\|\\s*(2|3|both)\\s*\\|\\s*(shape|type|error|any)\\s*\\|.*\\|");

    private DifferentialScript()
    {
    }

    /**
     * One command of the sequence.
     *
     * @param id   the step's name, unique.
     * @param args the command and its arguments, with {@code $PROTO} and {@code $PASS} still in them.
     */
    record Step(String id, List<String> args)
    {
        /**
         * @return the arguments with the placeholders replaced, as bytes (each char one byte: the file's escapes
         *         give any byte).
         */
        List<byte[]> resolve(final int protocol, final String password)
        {
            final List<byte[]> resolved = new ArrayList<>(args.size());
            for (final String arg : args)
            {
                final String value = arg.replace("$PROTO", Integer.toString(protocol)).replace("$PASS", password);
                resolved.add(value.getBytes(StandardCharsets.ISO_8859_1));
            }
            return resolved;
        }
    }

    /**
     * How a listed step's replies are compared instead of byte for byte.
     */
    enum Compare
    {
        /** The same types at every level and aggregates of the same sizes; the scalars may differ. */
        SHAPE,
        /** The same type of reply (its first byte). */
        TYPE,
        /** Both replies are errors, whatever their text. */
        ERROR,
        /** Any replies. */
        ANY;

        boolean accepts(final RawReply redis, final RawReply agni)
        {
            return switch (this)
            {
                case SHAPE -> redis.sameShape(agni);
                case TYPE -> redis.type() == agni.type();
                case ERROR -> redis.type() == '-' && agni.type() == '-';
                case ANY -> true;
            };
        }
    }

    /**
     * A deliberate difference: a step, the protocol versions it applies to, and how its replies are compared.
     *
     * @param id        the step.
     * @param protocols the versions, {@code {2}}, {@code {3}} or both.
     * @param compare   how the replies are compared.
     */
    record Difference(String id, Set<Integer> protocols, Compare compare)
    {
    }

    static List<Step> steps(final String resource)
    {
        try (InputStream in = DifferentialScript.class.getClassLoader().getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new IllegalStateException("no test resource " + resource);
            }
            final List<Step> steps = new ArrayList<>();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
            {
                if (line.isBlank() || line.startsWith("#"))
                {
                    continue;
                }
                final Matcher step = STEP.matcher(line);
                if (!step.matches())
                {
                    throw new IllegalStateException(resource + ": not a step: " + line);
                }
                steps.add(new Step(step.group(1), split(step.group(2))));
            }
            return steps;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static Map<String, Difference> differences(final String document)
    {
        final int begin = document.indexOf(BEGIN);
        final int end = document.indexOf(END);
        if (begin < 0 || end < begin)
        {
            throw new IllegalStateException("docs/protocol.md needs the markers " + BEGIN + " and " + END);
        }
        final Map<String, Difference> differences = new LinkedHashMap<>();
        for (final String line : document.substring(begin + BEGIN.length(), end).split("\n"))
        {
            if (!line.startsWith("|") || line.startsWith("| step") || line.startsWith("| ---"))
            {
                continue;
            }
            final Matcher row = ROW.matcher(line);
            if (!row.matches())
            {
                throw new IllegalStateException("docs/protocol.md: not a difference row: " + line);
            }
            final Set<Integer> protocols = switch (row.group(2))
            {
                case "2" -> Set.of(2);
                case "3" -> Set.of(3);
                default -> Set.of(2, 3);
            };
            final Compare compare = Compare.valueOf(row.group(3).toUpperCase(java.util.Locale.ROOT));
            if (differences.put(row.group(1), new Difference(row.group(1), protocols, compare)) != null)
            {
                throw new IllegalStateException("docs/protocol.md lists step " + row.group(1) + " twice");
            }
        }
        return differences;
    }

    /**
     * Splits a step's arguments: spaces separate them; {@code "..."} quotes one, with {@code \" \\ \r \n \xHH}.
     */
    static List<String> split(final String text)
    {
        final List<String> args = new ArrayList<>();
        int i = 0;
        while (i < text.length())
        {
            if (text.charAt(i) == ' ')
            {
                i++;
                continue;
            }
            final ByteArrayOutputStream arg = new ByteArrayOutputStream();
            if (text.charAt(i) == '"')
            {
                i++;
                while (text.charAt(i) != '"')
                {
                    char c = text.charAt(i++);
                    if (c == '\\')
                    {
                        c = text.charAt(i++);
                        switch (c)
                        {
                            case 'r' -> arg.write('\r');
                            case 'n' -> arg.write('\n');
                            case 'x' ->
                            {
                                arg.write(Integer.parseInt(text.substring(i, i + 2), 16));
                                i += 2;
                            }
                            default -> arg.write(c);
                        }
                    }
                    else
                    {
                        arg.write(c);
                    }
                }
                i++;
            }
            else
            {
                while (i < text.length() && text.charAt(i) != ' ')
                {
                    arg.write(text.charAt(i++));
                }
            }
            args.add(arg.toString(StandardCharsets.ISO_8859_1));
        }
        return args;
    }
}
