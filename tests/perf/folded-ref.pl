#!/usr/bin/perl
# tests/perf/folded-ref.pl - the reference for "prof flame --folded": folds
# the output of
#
#   perf script -F comm,pid,tid,event,ip,sym,dso
#
# (standard input) into "stack count" lines, sorted, by the rules of
# FlameGraph's stackcollapse-perf.pl, so that the stacks and counts are
# perf's reading of the file.  Written for the tests (the Perl script is
# not packaged for Debian 12); it reads both of perf script's layouts:
# a header line per sample followed by one line per call-chain entry
# (leaf first) and a blank line, or one line per sample without a chain.
#
# Rules: the root frame is the comm with spaces as '_' (pid=1: "-PID",
# tid=1: "-PID/TID"); a symbol loses ';' (to ':'), quotes, and everything
# from the first '(' that does not open "(anonymous namespace)" unless it
# looks like a Go method; "[unknown]" in a known DSO is "[file name]"
# (the name whole, also when it holds " (deleted)", where the Perl
# script's line parser would give "[unknown] "), with no DSO "[unknown]"; kernel=1 appends "_[k]" to [kernel.kallsyms]
# frames.  Only the samples of the first event seen count (event=NAME:
# that one).  merged=1 leaves the comm out, reverse=1 reverses each stack.

use strict;
use warnings;

my %opt = map { /^(\w+)=(.*)$/ ? ($1 => $2) : ($_ => 1) } @ARGV;
my (%count, @frames, $head, $event);

sub tidy {
	my $f = shift;

	$f =~ s/;/:/g;
	$f =~ s/["']//g;
	$f =~ s/\((?!anonymous namespace\)).*// unless $f =~ /\.\(.*\)\./;
	return $f;
}

sub frame {
	my ($sym, $dso) = @_;
	my $f = tidy($sym);

	if ($sym eq '[unknown]' && $dso ne '[unknown]') {
		(my $base = $dso) =~ s:.*/::;
		$base =~ s/;/:/g;
		$f = "[$base]";
	}
	$f .= '_[k]' if $opt{kernel} && $dso eq '[kernel.kallsyms]';
	return $f;
}

sub flush {
	return unless defined $head;
	my ($comm, $pid, $tid, $ev) = @$head;
	my @stack = reverse @frames;

	undef $head;
	@frames = ();
	$event //= $opt{event} // $ev;
	return if $ev ne $event && $ev !~ /^\Q$event\E:/;
	(my $root = $comm) =~ tr/ /_/;
	if ($opt{tid}) {
		$root .= "-$pid/$tid";
	} elsif ($opt{pid}) {
		$root .= "-$pid";
	}
	unshift @stack, $root unless $opt{merged};
	@stack = reverse @stack if $opt{reverse};
	$count{join(';', @stack)}++ if @stack;
}

# One call-chain entry ("SYM (DSO)", the DSO may hold " (deleted)").
sub entry {
	my $rest = shift;

	return frame('[unknown]', $1) if $rest =~ /^\[unknown\] \((.*)\)$/;
	return frame($1, $2) if $rest =~ /^(.+) \((.*)\)$/;
	return frame($rest, '[unknown]');
}

while (<STDIN>) {
	chomp;
	if (/^\s*(.+?)\s+(-?\d+)\/(-?\d+)\s+(\S+):\s+[0-9a-f]+ (.+)$/) {
		flush();
		$head = [$1, $2, $3, $4];
		push @frames, entry($5);
		flush();
	} elsif (/^\s*(.+?)\s+(-?\d+)\/(-?\d+)\s+(\S+):\s*$/) {
		flush();
		$head = [$1, $2, $3, $4];
	} elsif (/^\s+[0-9a-f]+ (.+)$/) {
		push @frames, entry($1);
	} elsif (/^$/) {
		flush();
	}
}
flush();
print "$_ $count{$_}\n" for sort keys %count;
