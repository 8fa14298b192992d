package io.jupiter.monitor.internal;

import static io.jupiter.monitor.internal.Commands.NEWLINE;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One console session (one per connection, on its IO thread): reads a line, answers it, prints the prompt.
 * Protected commands refuse until {@code auth} succeeds. Every failed {@code auth} counts against the peer's
 * address in the {@link AuthThrottle} (which slows that address's later attempts, in any session); after
 * {@value #MAX_FAILURES} in one session it closes. Attempts are judged one per address at a time, in turn
 * ({@link AuthThrottle#submit}); a session that sends another line before its {@code auth} is answered is closed,
 * that attempt unjudged. A session that has not authenticated within its deadline is
 * closed, and a successful {@code auth} must find a free authenticated slot ({@link SessionSlots}).
 */
public final class ConsoleSession extends SimpleChannelInboundHandler<String> {

    private static final Logger log = LoggerFactory.getLogger(ConsoleSession.class);

    static final int MAX_FAILURES = 3;
    static final String PROMPT = ">: ";
    static final String WELCOME = NEWLINE + "Welcome to jupiter monitor! Please auth with password." + NEWLINE;

    private final Commands commands;
    private final PasswordHash password;
    private final AuthThrottle throttle;
    private final SessionSlots slots;
    private final int maxLineLength;
    private final long authTimeoutMillis;
    private boolean authenticated;
    /** An auth attempt of this session waits for its turn or its answer. */
    private boolean judging;
    /** The session is closing: no further line is looked at. */
    private boolean closing;
    private int failures;
    private ScheduledFuture<?> authDeadline;

    /** @param authTimeoutMillis how long the session may stay unauthenticated before it is closed */
    public ConsoleSession(Commands commands, PasswordHash password, AuthThrottle throttle, SessionSlots slots,
                          int maxLineLength, long authTimeoutMillis) {
        this.commands = commands;
        this.password = password;
        this.throttle = throttle;
        this.slots = slots;
        this.maxLineLength = maxLineLength;
        this.authTimeoutMillis = authTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(WELCOME + commands.help() + PROMPT);
        authDeadline = ctx.executor().schedule(() -> {
            if (!authenticated) {
                ctx.writeAndFlush(NEWLINE + "not authenticated within " + authTimeoutMillis / 1000 + " s, closing"
                        + NEWLINE).addListener(ChannelFutureListener.CLOSE);
            }
        }, authTimeoutMillis, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (authDeadline != null) {
            authDeadline.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String line) {
        if (closing) {
            return;
        }
        if (judging) {
            // Lines sent behind an auth without waiting for its answer (pipelined guesses): the session is closed,
            // its attempt dropped unjudged, and no later line of the same read is looked at.
            closing = true;
            log.warn("monitor: closing {}: it sent more input while its auth was being judged",
                    ctx.channel().remoteAddress());
            ctx.writeAndFlush(NEWLINE + "one line at a time while auth is judged, closing" + NEWLINE)
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        String[] words = line.trim().split("\\s+");
        String command = words[0].toLowerCase(Locale.ROOT);
        switch (command) {
            case "":
                answer(ctx, "");
                return;
            case "help":
                answer(ctx, commands.help());
                return;
            case "quit":
            case "exit":
                ctx.writeAndFlush("Bye bye!" + NEWLINE).addListener(ChannelFutureListener.CLOSE);
                return;
            case "auth":
                auth(ctx, words);
                return;
            default:
                break;
        }
        if (!isKnown(command)) {
            answer(ctx, "unknown command '" + printable(words[0]) + "' (type help)" + NEWLINE);
            return;
        }
        if (!authenticated) {
            answer(ctx, "permission denied: auth <password> first" + NEWLINE);
            return;
        }
        String output;
        try {
            output = switch (command) {
                case "ls" -> commands.ls();
                case "metrics" -> commands.metrics(words);
                case "stack" -> commands.stack();
                case "memory_usage" -> commands.memoryUsage();
                default -> commands.registry(words);
            };
        } catch (RuntimeException e) {
            log.warn("monitor: command '{}' failed", command, e);
            output = "error: " + command + " failed: " + e + NEWLINE;
        }
        answer(ctx, output);
    }

    private static boolean isKnown(String command) {
        return switch (command) {
            case "ls", "metrics", "stack", "memory_usage", "registry" -> true;
            default -> false;
        };
    }

    private void auth(ChannelHandlerContext ctx, String[] words) {
        if (authenticated) {
            answer(ctx, "OK (already authenticated)" + NEWLINE);
            return;
        }
        if (words.length != 2) {
            answer(ctx, "usage: auth <password>" + NEWLINE);
            return;
        }
        char[] candidate = words[1].toCharArray();
        InetAddress peer = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
        // One attempt at a time: read nothing more until this one is answered (a line already read closes it).
        ctx.channel().config().setAutoRead(false);
        judging = true;
        throttle.submit(peer, new AuthThrottle.Attempt() {
            @Override
            public ScheduledExecutorService executor() {
                return ctx.executor();
            }

            @Override
            public Boolean judge() {
                try {
                    return ctx.channel().isActive() && !closing ? judged(ctx, password.matches(candidate)) : null;
                } finally {
                    Arrays.fill(candidate, '\0');
                }
            }
        });
    }

    /** Answers an attempt the throttle judged; returns {@code ok}. */
    private boolean judged(ChannelHandlerContext ctx, boolean ok) {
        judging = false;
        ctx.channel().config().setAutoRead(true);
        if (ok) {
            if (!slots.promote(ctx.channel())) {
                ctx.writeAndFlush("too many monitor sessions (at most " + slots.max() + "), try later" + NEWLINE)
                        .addListener(ChannelFutureListener.CLOSE);
                return true;
            }
            authenticated = true;
            authDeadline.cancel(false);
            answer(ctx, "OK" + NEWLINE);
            return true;
        }
        failures++;
        if (failures >= MAX_FAILURES) {
            log.warn("monitor: closing {} after {} failed auth attempts", ctx.channel().remoteAddress(), failures);
            ctx.writeAndFlush("permission denied: " + failures + " failed attempts, closing" + NEWLINE)
                    .addListener(ChannelFutureListener.CLOSE);
            return false;
        }
        answer(ctx, "permission denied (" + (MAX_FAILURES - failures) + " attempt"
                + (MAX_FAILURES - failures == 1 ? "" : "s") + " left)" + NEWLINE);
        return false;
    }

    private static void answer(ChannelHandlerContext ctx, String text) {
        ctx.writeAndFlush(text + PROMPT);
    }

    /** The first 40 characters of {@code word}, with anything not printable ASCII shown as '?'. */
    private static String printable(String word) {
        StringBuilder out = new StringBuilder(Math.min(word.length(), 40));
        for (int i = 0; i < word.length() && i < 40; i++) {
            char c = word.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return word.length() > 40 ? out + "..." : out.toString();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            ctx.writeAndFlush(NEWLINE + "idle too long, closing" + NEWLINE).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            ctx.writeAndFlush(NEWLINE + "line too long (at most " + maxLineLength + " bytes), closing" + NEWLINE)
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        log.debug("monitor: closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
