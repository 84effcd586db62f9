package io.agni.bench.net.target;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A target as the command line names it: {@code [NAME=]agni[:FLAGS]}, {@code [NAME=]redis[:FLAGS]} or
 * {@code [NAME=]HOST:PORT}.
 * <ul>
 *   <li>{@code agni:--shards 1}: the harness starts agni's server jar with these flags (split at spaces);</li>
 *   <li>{@code redis:--io-threads 2}: the harness starts {@code redis-server} with these flags after its own;</li>
 *   <li>{@code 10.0.0.5:6379}: a server already running there, which the harness neither starts nor stops.</li>
 * </ul>
 * Flags must start with {@code -}, which is how {@code redis:6379} (host {@code redis}, port 6379) stays an address.
 * The name (letters, digits, {@code . _ -}) labels the target in the report; without one, the text after the name
 * is the label.
 *
 * @param name  the label in the report, unique within a run.
 * @param kind  what the harness does to it.
 * @param flags server flags for a started server, empty for an address.
 * @param host  the host of an address target, null otherwise.
 * @param port  the port of an address target, 0 otherwise.
 */
public record TargetSpec(String name, Kind kind, List<String> flags, String host, int port)
{
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    /**
     * What the harness does with a target.
     */
    public enum Kind
    {
        /** Starts agni's server jar in a JVM of its own and stops it at the end. */
        AGNI,
        /** Starts {@code redis-server} and stops it at the end. */
        REDIS,
        /** Connects to a server it did not start. */
        ADDRESS
    }

    /**
     * Validates the fields.
     */
    public TargetSpec
    {
        flags = List.copyOf(flags);
        if (name == null || name.isBlank())
        {
            throw new IllegalArgumentException("a target needs a name");
        }
    }

    /**
     * Parses a target as the command line gives it.
     *
     * @param text {@code [NAME=]agni[:FLAGS]}, {@code [NAME=]redis[:FLAGS]} or {@code [NAME=]HOST:PORT}.
     * @return the target.
     * @throws IllegalArgumentException with the expected forms, if the text is none of them.
     */
    public static TargetSpec parse(final String text)
    {
        final String trimmed = text.trim();
        String name = null;
        String rest = trimmed;
        final int eq = trimmed.indexOf('=');
        if (eq > 0 && NAME.matcher(trimmed.substring(0, eq)).matches())
        {
            name = trimmed.substring(0, eq);
            rest = trimmed.substring(eq + 1).trim();
        }
        final String label = name != null ? name : rest;
        final int colon = rest.indexOf(':');
        final String head = (colon < 0 ? rest : rest.substring(0, colon)).trim();
        final String tail = colon < 0 ? "" : rest.substring(colon + 1).trim();
        if (colon >= 0 && PORT.matcher(tail).matches() && !head.isEmpty())
        {
            final int port = Integer.parseInt(tail);
            if (port < 1 || port > 65_535)
            {
                throw new IllegalArgumentException("port must be 1 to 65535: " + text);
            }
            return new TargetSpec(label, Kind.ADDRESS, List.of(), head, port);
        }
        final List<String> flags = tail.isEmpty() ? List.of() : Arrays.asList(tail.split("\\s+"));
        if (!flags.isEmpty() && !flags.get(0).startsWith("-"))
        {
            throw new IllegalArgumentException("server flags must start with '-': " + text + usage());
        }
        return switch (head.toLowerCase(Locale.ROOT))
        {
            case "agni" -> new TargetSpec(label, Kind.AGNI, flags, null, 0);
            case "redis" -> new TargetSpec(label, Kind.REDIS, flags, null, 0);
            default -> throw new IllegalArgumentException("unknown target: " + text + usage());
        };
    }

    /**
     * @return the label made safe for a file name.
     */
    public String fileName()
    {
        return name.replaceAll("[^A-Za-z0-9_.-]+", "_");
    }

    /**
     * @return how the target was given, without its name: {@code agni --shards 1}, {@code redis} or
     * {@code host:port}.
     */
    public String describe()
    {
        return switch (kind)
        {
            case AGNI -> ("agni " + String.join(" ", flags)).trim();
            case REDIS -> ("redis " + String.join(" ", flags)).trim();
            case ADDRESS -> host + ":" + port;
        };
    }

    private static String usage()
    {
        return " (expected [NAME=]agni[:FLAGS], [NAME=]redis[:FLAGS] or [NAME=]HOST:PORT)";
    }
}
