package io.agni.protocol.command;

import io.agni.protocol.RespArgs;

import java.nio.charset.StandardCharsets;

/**
 * The {@code CLIENT} subcommands of Redis's client-side caching ({@code TRACKING}, {@code TRACKINGINFO},
 * {@code GETREDIR}, {@code CACHING}), which agni does not serve: it sends no invalidation messages (RESP3 push
 * messages or a redirection). So that a client asking for caching learns it at once, {@code CLIENT TRACKING on} is
 * refused with {@link #TRACKING_REFUSED}, while what is true of a connection that never tracks is answered as Redis
 * answers it: {@code CLIENT TRACKING off} is {@code +OK}, {@code TRACKINGINFO} says {@code off} with no redirection,
 * {@code GETREDIR} is {@code -1}, and {@code CACHING} gets Redis's error for a client not in tracking mode
 * (docs/protocol.md, "RESP3").
 */
final class ClientTrackingCommands
{
    static final String TRACKING_REFUSED = "ERR client-side caching is not supported by agni: CLIENT TRACKING on " +
        "is refused (no invalidation messages are sent)";
    static final String CACHING_WITHOUT_TRACKING = "ERR CLIENT CACHING can be called only when the client is in " +
        "tracking mode with OPTIN or OPTOUT mode enabled";

    private static final byte[] ON = "ON".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OFF = "OFF".getBytes(StandardCharsets.US_ASCII);

    private ClientTrackingCommands()
    {
    }

    static void tracking(final CommandContext context)
    {
        final RespArgs args = context.args();
        if (args.equalsIgnoreCase(2, ON))
        {
            context.out().error(TRACKING_REFUSED);
        }
        else if (args.equalsIgnoreCase(2, OFF))
        {
            context.out().ok();
        }
        else
        {
            context.syntaxError();
        }
    }

    static void trackingInfo(final CommandContext context)
    {
        context.out().mapHeader(3)
            .bulk("flags").setHeader(1).bulk("off")
            .bulk("redirect").integer(-1)
            .bulk("prefixes").arrayHeader(0);
    }

    static void getRedirect(final CommandContext context)
    {
        context.out().integer(-1);
    }

    static void caching(final CommandContext context)
    {
        context.out().error(CACHING_WITHOUT_TRACKING);
    }
}
