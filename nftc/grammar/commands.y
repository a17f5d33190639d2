/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Grammar of the nft language (nftables 1.0.6).
 *
 * A pure bison parser. Keywords come from the scanner's sorted table;
 * protocol, field and key names are looked up in proto.h/keys.h tables
 * by the actions rather than spelled out as grammar rules. Constants are
 * left untyped (EXPR_SYMBOL) for the evaluator. See PARSER-IR.md for
 * what each construct becomes.
 *
 * The grammar is kept in four parts, one concern each, which
 * nftc/Makefile.am concatenates into parser.y (in the build tree):
 * this one (declarations, lines, values and commands), blocks.y,
 * matches.y and statements.y. Bison's messages and the #line
 * directives in parser.c name lines of that parser.y.
 */
%define api.pure full
%define api.prefix {nft_}
%define api.location.type {struct location}
%define parse.error verbose
%locations
%parse-param {struct parser_state *state} {void *scanner}
%lex-param {void *scanner}

%code requires {
#include "parser_state.h"
#include "rule_memo.h"
}

%code {
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_synproxy.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include "keys.h"
#include "pipeline.h"

int nft_lex(NFT_STYPE *lval, struct location *lloc, void *scanner);

static void nft_error(struct location *loc, struct parser_state *state,
		      void *scanner, const char *msg)
{
	erec_error(state->erq, loc, "%s", msg);
}

/* N == 1 first (unit and one-token rules): the span is the symbol's */
#define YYLLOC_DEFAULT(Cur, Rhs, N)					\
	do {								\
		if ((N) == 1) {						\
			(Cur) = YYRHSLOC(Rhs, 1);			\
		} else if (N) {						\
			(Cur) = YYRHSLOC(Rhs, 1);			\
			if (YYRHSLOC(Rhs, N).indesc == (Cur).indesc) {	\
				(Cur).last_line =			\
					YYRHSLOC(Rhs, N).last_line;	\
				(Cur).last_column =			\
					YYRHSLOC(Rhs, N).last_column;	\
			}						\
		} else {						\
			(Cur) = YYRHSLOC(Rhs, 0);			\
			(Cur).first_line = (Cur).last_line;		\
			(Cur).first_column = (Cur).last_column;		\
		}							\
	} while (0)

/*
 * Stop after erq.max_errors errors. Bison does not destroy the symbols of
 * the rule whose action aborts, so the action's own values are released
 * by @cleanup first.
 */
#define CHECK_ERRORS_FREE(cleanup)					\
	do {								\
		if (state->erq->max_errors &&				\
		    state->erq->num_errors >= state->erq->max_errors) {	\
			cleanup;					\
			YYABORT;					\
		}							\
	} while (0)
#define CHECK_ERRORS()	CHECK_ERRORS_FREE((void)0)
}

%union {
	char			*string;
	const char		*kw;
	uint64_t		val;
	struct expr		*expr;
	struct stmt		*stmt;
	struct rule		*rule;
	struct table		*table;
	struct chain		*chain;
	struct set		*set;
	struct obj		*obj;
	struct flowtable	*flowtable;
	struct cmd		*cmd;
	/* a pointer: bison copies the whole union on every shift */
	struct handle		*handle;
}

%token END 0 "end of file"
%token NEWLINE "newline"
%token SEMICOLON "semicolon"
%token COMMA "comma"
%token JUNK "junk"
%token <string> STRING "string"
%token <string> QUOTED_STRING "quoted string"
%token <string> NUM "number"
%token <string> VARIABLE "variable"
%token EQ "==" NEQ "!=" LT "<" GT ">" LTE "<=" GTE ">="
%token LSHIFT "<<" RSHIFT ">>"

%token <kw> PROTO "protocol name"
%token <kw> EXTHDR_NAME "extension header name"
%token <kw> META_UKEY "meta key"

%token <kw> ACCEPT "accept" ADD "add" ALL "all" AND "and" ARP "arp"
%token <kw> AUTO_MERGE "auto-merge" BRIDGE "bridge" BURST "burst"
%token <kw> BYPASS "bypass" BYTES "bytes" CHAIN "chain" CHAINS "chains"
%token <kw> CHUNK "chunk"
%token <kw> COMMENT "comment" CONTINUE "continue" COUNT "count"
%token <kw> COUNTER "counter" COUNTERS "counters" CREATE "create" CT "ct"
%token <kw> DEFINE "define" DELETE "delete" DESCRIBE "describe"
%token <kw> DESTROY "destroy" DEVICE "device" DEVICES "devices"
%token <kw> DNAT "dnat" DROP "drop" DUP "dup" ELEMENT "element"
%token <kw> ELEMENTS "elements" EXISTS "exists" EXPECTATION "expectation"
%token <kw> EXPIRES "expires" EXTHDR "exthdr" FANOUT "fanout" FIB "fib"
%token <kw> FLAGS "flags" FLOW "flow" FLOWTABLE "flowtable"
%token <kw> FLOWTABLES "flowtables" FLUSH "flush"
%token <kw> FULLY_RANDOM "fully-random" FWD "fwd"
%token <kw> GC_INTERVAL "gc-interval" GET "get" GOTO "goto" GROUP "group"
%token <kw> HANDLE "handle" HELPER "helper" HOOK "hook"
%token <kw> INCLUDE "include" INDEX "index" INET "inet" INSERT "insert"
%token <kw> IP "ip" IP6 "ip6" IPSEC "ipsec" JHASH "jhash" JUMP "jump"
%token <kw> L3PROTO "l3proto" LAST "last" LEVEL "level" LIMIT "limit"
%token <kw> LIMITS "limits" LIST "list" LOG "log" MAP "map" MAPS "maps"
%token <kw> MASQUERADE "masquerade" META "meta" METER "meter"
%token <kw> MISSING "missing" MOD "mod" MSS "mss" NAME "name"
%token <kw> NETDEV "netdev" NEVER "never" NOTRACK "notrack" NUMKW "num"
%token <kw> NUMGEN "numgen" OFFLOAD "offload" OFFSET "offset"
%token <kw> OPTION "option" OPTIONS "options" OR "or"
%token <kw> ORIGINAL "original" OSF "osf" OVER "over" PACKETS "packets"
%token <kw> PERSISTENT "persistent" POLICY "policy" POSITION "position"
%token <kw> PREFIX "prefix" PRIORITY "priority" PROTOCOL "protocol"
%token <kw> QUEUE "queue" QUEUE_THRESHOLD "queue-threshold"
%token <kw> QUOTA "quota" QUOTAS "quotas" RANDOM "random" RATE "rate"
%token <kw> REDEFINE "redefine" REDIRECT "redirect" REJECTKW "reject"
%token <kw> RENAME "rename" REPLACE "replace" REPLY "reply"
%token <kw> RESET "reset" RETURN "return" RT "rt" RULE "rule"
%token <kw> RULES "rules" RULESET "ruleset" SACK_PERM "sack-perm"
%token <kw> SECMARK "secmark" SEED "seed" SEQUENCE "sequence" SET "set"
%token <kw> SETS "sets" SIZE "size" SNAPLEN "snaplen" SNAT "snat"
%token <kw> SOCKET "socket" SPNUM "spnum" SYMHASH "symhash"
%token <kw> SYNPROXY "synproxy" TABLE "table" TABLES "tables"
%token <kw> TIMEOUT "timeout" TIMESTAMP "timestamp" TO "to"
%token <kw> TPROXY "tproxy" TTL "ttl" TYPE "type" TYPEOF "typeof"
%token <kw> UNDEFINE "undefine" UNTIL "until" UPDATE "update" USED "used"
%token <kw> VERSION "version" VMAP "vmap" WITH "with" WSCALE "wscale"
%token <kw> XOR "xor"

%type <cmd> base_cmd add_cmd delete_cmd list_cmd flush_cmd reset_cmd
%type <handle> table_spec chain_spec rule_position set_spec
%type <handle> family_unspec_spec
%type <val> family family_opt nat_family
%type <string> identifier string time_arg obj_comment chain_name
%type <kw> field_name key_name kw_value opt_name kw_ident opt_field
%type <table> table_block table_body
%type <chain> chain_block chain_body chain_anon
%type <set> set_block set_body
%type <obj> counter_body quota_body limit_body quota_config limit_config
%type <obj> counter_block quota_block limit_block secmark_block
%type <obj> ct_helper_block secmark_body
%type <obj> ct_helper_body synproxy_body synproxy_blk
%type <flowtable> ft_block ft_body
%type <rule> rule stmt_list
%type <stmt> stmt counter_stmt log_stmt
%type <stmt> limit_stmt limit_args quota_stmt reject_stmt nat_stmt
%type <stmt> nat_args nat_target
%type <stmt> tproxy_stmt queue_stmt queue_base dup_stmt fwd_stmt set_stmt
%type <stmt> objref_stmt connlimit_stmt synproxy_stmt synproxy_cfg flow_stmt
%type <stmt> last_stmt assign_stmt elem_stmt chain_stmt
%type <val> chain_stmt_type
%type <expr> expr primary selector
%type <expr> verdict_expr chain_target
%type <expr> set_expr set_elems set_elem set_key elem_data rhs rhs_list
%type <expr> lhs value prio_expr dev_spec policy_expr type_spec
%type <expr> typeof_spec
%type <val> relop fib_flags fib_flag log_flags log_flag nat_flags
%type <val> nat_flag set_flags set_flag queue_flags queue_flag
%type <val> osf_ttl numgen_offset limit_over byte_count
%type <val> number set_op meter_size named_obj plural_obj
%type <string> kw_or_string rate_unit
%type <expr> value_token

%destructor { free($$); } <string>
%destructor { expr_free($$); } <expr>
%destructor { stmt_free($$); } <stmt>
%destructor { rule_free($$); } <rule>
%destructor { table_free($$); } <table>
%destructor { chain_free($$); } <chain>
%destructor { set_free($$); } <set>
%destructor { obj_free($$); } <obj>
%destructor { flowtable_free($$); } <flowtable>
%destructor { cmd_free($$); } <cmd>
%destructor { handle_free($$); free($$); } <handle>

%precedence MAP
%left '.'
%left '|' OR
%left '^' XOR
%left '&' AND
%left LSHIFT RSHIFT
%left '-'
%left '/'

/*
 * 9: one of them is "sctp chunk data" followed by a string, a field
 * name (shift, as stock) rather than a value compared with the presence.
 */
%expect 9

%start input

%%

input		:	%empty
		|	input line
		;

stmt_sep	:	NEWLINE
		|	SEMICOLON
		;

opt_nl		:	%empty
		|	opt_nl NEWLINE
		;

line		:	common_block
		|	stmt_sep
		|	base_cmd stmt_sep
			{
				/* stock's command span ends with its separator */
				if ($1)
					$1->location = @$;
				if (parser_cmd_done(state, $1) < 0)
					YYABORT;
			}
		|	base_cmd END
			{
				if (parser_cmd_done(state, $1) < 0)
					YYABORT;
			}
		|	error stmt_sep
			{
				yyerrok;
				CHECK_ERRORS();
			}
		;

common_block	:	INCLUDE QUOTED_STRING stmt_sep
			{
				int ret = scanner_include(state, $2, &@$);

				free($2);
				if (ret < 0)
					CHECK_ERRORS();
			}
		|	DEFINE identifier '=' value stmt_sep
			{
				if (symbol_lookup(state, $2)) {
					erec_error(state->erq, &@2,
						   "redefinition of symbol '%s'",
						   $2);
					expr_free($4);
				} else {
					symbol_bind(state, $2, $4);
				}
				free($2);
			}
		|	REDEFINE identifier '=' value stmt_sep
			{
				symbol_bind(state, $2, $4);
				free($2);
			}
		|	UNDEFINE identifier stmt_sep
			{
				/* stock nft ignores unknown names here */
				symbol_unbind(state, $2);
				free($2);
			}
		;

value		:	rhs
		;

identifier	:	STRING
		|	QUOTED_STRING
		|	kw_ident	{ $$ = strdup($1); }
		;

/*
 * A chain name: stock 1.0.6 takes a plain word only, none of its
 * keywords there, nothing quoted (its syntax error, "expecting string").
 */
chain_name	:	STRING
			{
				if (parser_chain_name(state, $1, &@1,
						      "string") < 0) {
					free($1);
					YYERROR;
				}
				$$ = $1;
			}
		|	QUOTED_STRING
			{
				$$ = NULL;
				free($1);
				erec_error(state->erq, &@1, "syntax error, "
					   "unexpected quoted string, "
					   "expecting string");
				YYERROR;
			}
		|	kw_ident
			{
				if (parser_chain_name(state, $1, &@1,
						      "string") < 0)
					YYERROR;
				$$ = strdup($1);
			}
		;

/* Keywords that are also common object names. */
kw_ident	:	FWD | DUP | LOG | LAST | NAME | HOOK | DEVICE | TYPE
		|	MAP | SET | RULE | CHAIN | TABLE | ELEMENT | OPTION
		|	CHUNK
		|	OPTIONS | VERSION | SIZE | POLICY | PRIORITY | PROTOCOL
		|	GROUP | LEVEL | PREFIX | RATE | COUNT | SEED | OFFSET
		|	INDEX | POSITION | HANDLE | TIMEOUT | EXPIRES | USED
		|	NEVER | OVER | UNTIL | WITH | TO | MOD | BURST | EXISTS
		|	MISSING
		|	ORIGINAL | REPLY | ALL | BYPASS | FANOUT | PERSISTENT
		|	RANDOM | FULLY_RANDOM | SNAPLEN | TTL | MSS | WSCALE
		|	HELPER | L3PROTO | COMMENT | FLAGS | DEVICES | ELEMENTS
		|	SECMARK | METER | VMAP | PACKETS | BYTES | QUOTA | LIMIT
		|	COUNTER | SYNPROXY | FLOWTABLE | OFFLOAD | ACCEPT | DROP
		|	CONTINUE | RETURN | QUEUE | REJECTKW | NOTRACK | FLOW
		|	SNAT | DNAT | MASQUERADE | REDIRECT | TPROXY | TABLES
		|	CHAINS | SETS | MAPS | RULES | RULESET | COUNTERS
		|	QUOTAS | LIMITS | FLOWTABLES | RESET | FLUSH | LIST
		|	ADD | DELETE | UPDATE | INSERT | REPLACE | CREATE
		|	DESTROY | RENAME | DESCRIBE | INCLUDE | DEFINE | GET
		|	REDEFINE | UNDEFINE | AUTO_MERGE | GC_INTERVAL
		|	QUEUE_THRESHOLD | SACK_PERM | TIMESTAMP | SEQUENCE
		|	EXPECTATION | SPNUM | TYPEOF | NUMKW
		;

string		:	STRING
		|	QUOTED_STRING
		;

number		:	NUM
			{
				if (parse_u64($1, &$$) < 0)
					erec_error(state->erq, &@1,
						   "invalid number %s", $1);
				free($1);
			}
		;

time_arg	:	STRING
		|	NUM
		;

/* Commands */

base_cmd	:	add_cmd
		|	ADD add_cmd		{ $$ = $2; }
		|	CREATE add_cmd		{ $$ = $2; $$->op = CMD_CREATE; }
		|	INSERT RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_INSERT, $3, $4, &@$);
			}
		|	REPLACE RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_REPLACE, $3, $4, &@$);
			}
		|	DELETE delete_cmd	{ $$ = $2; }
		|	DESTROY delete_cmd	{ $$ = $2; $$->op = CMD_DESTROY; }
		|	LIST list_cmd		{ $$ = $2; }
		|	FLUSH flush_cmd		{ $$ = $2; }
		|	RESET reset_cmd		{ $$ = $2; }
		|	RENAME CHAIN chain_spec identifier
			{
				$$ = cmd_alloc(CMD_RENAME, CMD_OBJ_CHAIN, $3, &@$,
					       NULL);
				$$->arg = $4;
				handle_free($3);
				free($3);
			}
		|	GET ELEMENT set_spec set_expr
			{
				$$ = cmd_obj(CMD_GET, CMD_OBJ_ELEMENTS, $3, &@$,
					     $4);
			}
		|	DESCRIBE expr
			{
				$$ = cmd_alloc(CMD_DESCRIBE, CMD_OBJ_EXPR, NULL,
					       &@$, $2);
			}
		;

add_cmd		:	TABLE table_spec
			{
				struct table *t = table_alloc();

				t->location = @$;
				handle_merge(&t->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, t);
			}
		|	TABLE table_spec
			{
				pipeline_table_begin(state->pipe, $2);
			}
			table_body
			{
				table_fixup(state, $4, $2, &@$);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, $4);
			}
		|	CHAIN chain_spec
			{
				struct chain *c = chain_alloc();

				c->location = @$;
				handle_merge(&c->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, c);
			}
		|	CHAIN chain_spec chain_body
			{
				$3->location = @$;
				chain_fixup($3, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, $3);
			}
		|	RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_ADD, $2, $3, &@$);
			}
		|	SET set_spec set_body
			{
				$3->location = @$;
				handle_merge(&$3->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_SET, $2, &@$, $3);
			}
		|	MAP set_spec set_body
			{
				$3->location = @$;
				$3->flags |= SET_F_MAP;
				handle_merge(&$3->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_MAP, $2, &@$, $3);
			}
		|	ELEMENT set_spec
			{
				parser_elements_begin(state,
					parser_elements_cmd_set(state, $2));
			}
			set_expr
			{
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_ELEMENTS, $2, &@$,
					     $4);
				parser_elements_end(state, $$ ? &$$->pack : NULL,
						    $$ ? $4 : NULL);
			}
		|	FLOWTABLE set_spec ft_body
			{
				$3->location = @$;
				handle_merge(&$3->handle, $2);
				$3->handle.flowtable.name = $3->handle.set.name;
				$3->handle.set.name = NULL;
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_FLOWTABLE, $2, &@$,
					     $3);
				cmd_move_set_name(&$$->handle, 2);
			}
		|	COUNTER set_spec
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$,
						 obj_new(&@$, NFT_OBJECT_COUNTER));
			}
		|	COUNTER set_spec PACKETS number BYTES number
			{
				struct obj *o = obj_new(&@$, NFT_OBJECT_COUNTER);

				o->counter.packets = $4;
				o->counter.bytes = $6;
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$, o);
			}
		|	COUNTER set_spec counter_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$,
						 $3);
			}
		|	QUOTA set_spec quota_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_QUOTA, $2, &@$,
						 $3);
			}
		|	QUOTA set_spec quota_config
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_QUOTA, $2, &@$,
						 $3);
			}
		|	LIMIT set_spec limit_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_LIMIT, $2, &@$,
						 $3);
			}
		|	LIMIT set_spec limit_config
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_LIMIT, $2, &@$,
						 $3);
			}
		|	CT HELPER set_spec ct_helper_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_CT_HELPER, $3,
						 &@$, $4);
			}
		|	SYNPROXY set_spec synproxy_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_SYNPROXY, $2,
						 &@$, $3);
			}
		|	SECMARK set_spec secmark_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_SECMARK, $2,
						 &@$, $3);
			}
		;

/*
 * delete/list/flush/reset: the object kind is a value of the grammar
 * (named_obj, plural_obj) rather than one rule per kind.
 */
delete_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	TABLE family_opt HANDLE number
			{
				struct handle *h = calloc(1, sizeof(*h));

				if (!h)
					YYABORT;
				h->family = $2;
				handle_set_id(&h->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_TABLE, h, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	CHAIN table_spec HANDLE number
			{
				handle_set_id(&$2->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	RULE chain_spec HANDLE number
			{
				handle_set_id(&$2->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_RULE, $2, &@$,
					     NULL);
			}
		|	ELEMENT set_spec
			{
				parser_elements_begin(state,
					parser_elements_cmd_set(state, $2));
			}
			set_expr
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_ELEMENTS, $2, &@$,
					     $4);
				parser_elements_end(state, $$ ? &$$->pack : NULL,
						    $$ ? $4 : NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_DELETE, $1, $2, &@$);
			}
		;

list_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_LIST, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_LIST, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_LIST, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_LIST, $1, $2, &@$, NULL);
			}
		;

flush_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_FLUSH, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_FLUSH, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_FLUSH, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_FLUSH, $1, $2, &@$, NULL);
			}
		;

reset_cmd	:	named_obj set_spec
			{
				$$ = cmd_named(CMD_RESET, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_RESET, $1, $2, &@$, NULL);
			}
		;

named_obj	:	SET		{ $$ = CMD_OBJ_SET; }
		|	MAP		{ $$ = CMD_OBJ_MAP; }
		|	FLOWTABLE	{ $$ = CMD_OBJ_FLOWTABLE; }
		|	COUNTER		{ $$ = CMD_OBJ_COUNTER; }
		|	QUOTA		{ $$ = CMD_OBJ_QUOTA; }
		|	LIMIT		{ $$ = CMD_OBJ_LIMIT; }
		|	CT HELPER	{ $$ = CMD_OBJ_CT_HELPER; }
		|	SYNPROXY	{ $$ = CMD_OBJ_SYNPROXY; }
		|	SECMARK		{ $$ = CMD_OBJ_SECMARK; }
		;

plural_obj	:	RULESET		{ $$ = CMD_OBJ_RULESET; }
		|	TABLES		{ $$ = CMD_OBJ_TABLES; }
		|	CHAINS		{ $$ = CMD_OBJ_CHAINS; }
		|	SETS		{ $$ = CMD_OBJ_SETS; }
		|	MAPS		{ $$ = CMD_OBJ_MAPS; }
		|	COUNTERS	{ $$ = CMD_OBJ_COUNTERS; }
		|	QUOTAS		{ $$ = CMD_OBJ_QUOTAS; }
		|	LIMITS		{ $$ = CMD_OBJ_LIMITS; }
		|	FLOWTABLES	{ $$ = CMD_OBJ_FLOWTABLES; }
		;

family		:	IP		{ $$ = NFPROTO_IPV4; }
		|	IP6		{ $$ = NFPROTO_IPV6; }
		|	INET		{ $$ = NFPROTO_INET; }
		|	ARP		{ $$ = NFPROTO_ARP; }
		|	BRIDGE		{ $$ = NFPROTO_BRIDGE; }
		|	NETDEV		{ $$ = NFPROTO_NETDEV; }
		;

family_opt	:	%empty		{ $$ = NFPROTO_IPV4; }
		|	family
		;

family_unspec_spec :	%empty
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$)
					YYABORT;
			}
		|	family
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$)
					YYABORT;
				$$->family = $1;
			}
		|	TABLE table_spec	{ $$ = $2; }
		;

table_spec	:	family_opt identifier
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$) {
					free($2);
					YYABORT;
				}
				$$->family = $1;
				$$->table.name = $2;
				$$->table.location = @2;
			}
		;

chain_spec	:	table_spec chain_name
			{
				$$ = $1;
				$$->chain.name = $2;
				$$->chain.location = @2;
			}
		;

set_spec	:	table_spec identifier
			{
				$$ = $1;
				$$->set.name = $2;
				$$->set.location = @2;
			}
		;

rule_position	:	chain_spec
		|	chain_spec POSITION number
			{
				/* stock underlines "position N" */
				struct location l = location_join(&@2, &@3);

				$$ = $1;
				handle_set_id(&$$->position, $3, &l);
			}
		|	chain_spec HANDLE number
			{
				$$ = $1;
				handle_set_id(&$$->handle, $3, &@3);
			}
		|	chain_spec INDEX number
			{
				/* 0-based; stock underlines "index N" */
				struct location l = location_join(&@2, &@3);

				$$ = $1;
				handle_set_id(&$$->index, $3, &l);
			}
		;

