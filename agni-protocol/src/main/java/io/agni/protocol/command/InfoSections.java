package io.agni.protocol.command;

import io.agni.protocol.RespArgs;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which sections an {@code INFO} reports, as Redis 7.0's {@code genInfoSectionDict} picks them: no argument is
 * {@code default}; {@code default} adds the default sections, {@code all} and {@code everything} every section
 * (agni has no modules, so the two are the same), any other argument the section of that name, ignoring case;
 * unknown names add nothing (so {@code INFO foo} is an empty reply). Sections are reported in Redis's order,
 * whatever the order of the arguments.
 */
final class InfoSections
{
    /**
     * Every section, in Redis's order.
     */
    static final String[] NAMES = {
        "server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "commandstats",
        "errorstats", "latencystats", "cluster", "keyspace" };

    /**
     * Whether each section of {@link #NAMES} is in {@code default}: all but {@code commandstats} and
     * {@code latencystats}.
     */
    private static final boolean[] DEFAULT = {
        true, true, true, true, true, true, true, true, false, true, false, true, true };

    private InfoSections()
    {
    }

    /**
     * Picks the sections from an {@code INFO} command's arguments.
     *
     * @param args {@code INFO} and its arguments.
     * @return for each section of {@link #NAMES}, whether it is reported.
     */
    static boolean[] select(final RespArgs args)
    {
        final boolean[] wanted = new boolean[NAMES.length];
        if (args.count() == 1)
        {
            addDefault(wanted);
        }
        for (int i = 1; i < args.count(); i++)
        {
            select(args.asString(i), wanted);
        }
        return wanted;
    }

    /**
     * Adds one argument's sections.
     *
     * @param argument a section name, {@code default}, {@code all} or {@code everything}, any case.
     * @param wanted   the sections picked so far.
     */
    static void select(final String argument, final boolean[] wanted)
    {
        final String name = argument.toLowerCase(Locale.ROOT);
        switch (name)
        {
            case "default":
                addDefault(wanted);
                break;
            case "all":
            case "everything":
                Arrays.fill(wanted, true);
                break;
            default:
                for (int s = 0; s < NAMES.length; s++)
                {
                    wanted[s] |= NAMES[s].equals(name);
                }
                break;
        }
    }

    private static void addDefault(final boolean[] wanted)
    {
        for (int s = 0; s < NAMES.length; s++)
        {
            wanted[s] |= DEFAULT[s];
        }
    }

    /**
     * Returns the header Redis writes for a section ({@code # Server}, {@code # CPU}).
     *
     * @param name a section of {@link #NAMES}.
     * @return its header line, without the line end.
     */
    static String header(final String name)
    {
        if (name.equals("cpu"))
        {
            return "# CPU";
        }
        return "# " + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
