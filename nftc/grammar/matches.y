/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rules, matches, set expressions and selectors.
 *
 * One part of the nft grammar: nftc/Makefile.am concatenates
 * grammar/commands.y, blocks.y, matches.y and statements.y, in that
 * order, into parser.y (in the build tree) for bison.
 */

/* Rules */

rule		:	stmt_list
		|	stmt_list COMMENT string
			{
				$$ = $1;
				$$->comment = $3;
			}
		;

stmt_list	:	stmt
			{
				$$ = rule_alloc(&@$, NULL);
				list_add_tail(&$1->list, &$$->stmts);
				$$->num_stmts = 1;
			}
		|	stmt_list stmt
			{
				$$ = $1;
				$$->location = @$;
				list_add_tail(&$2->list, &$$->stmts);
				$$->num_stmts++;
			}
		;

stmt		:	counter_stmt
		|	log_stmt
		|	limit_stmt
		|	quota_stmt
		|	reject_stmt
		|	nat_stmt
		|	tproxy_stmt
		|	queue_stmt
		|	dup_stmt
		|	fwd_stmt
		|	assign_stmt
		|	set_stmt
		|	objref_stmt
		|	connlimit_stmt
		|	synproxy_stmt
		|	flow_stmt
		|	last_stmt
		|	chain_stmt
		|	NOTRACK		{ $$ = stmt_alloc(&@$, STMT_NOTRACK); }
		|	RESET selector
			{
				$$ = stmt_alloc(&@$, STMT_OPTSTRIP);
				$$->optstrip.expr = $2;
			}
		;

/*
 * Matches (and below, verdicts and selectors): more rules of stmt and
 * selector rather than their own nonterminals, which cost a unit
 * reduction each per statement (stmt <- match_stmt, selector <-
 * payload_sel); the automaton and its diagnostics are the same.
 */

stmt		:	lhs rhs
			{
				$$ = match(state, &@$, OP_IMPLICIT, $1, $2);
			}
		|	lhs relop rhs
			{
				$$ = match(state, &@$, $2, $1, $3);
			}
		|	lhs '!' rhs
			{
				$$ = match(state, &@$, OP_NEG, $1, $3);
			}
		;

relop		:	EQ	{ $$ = OP_EQ; }
		|	NEQ	{ $$ = OP_NEQ; }
		|	LT	{ $$ = OP_LT; }
		|	GT	{ $$ = OP_GT; }
		|	LTE	{ $$ = OP_LTE; }
		|	GTE	{ $$ = OP_GTE; }
		|	'<'	{ $$ = OP_LT; }
		|	'>'	{ $$ = OP_GT; }
		;

rhs		:	expr
		|	rhs_list
		;

rhs_list	:	expr COMMA expr
			{
				$$ = list_expr_alloc(&@$, EXPR_LIST);
				list_expr_add($$, $1);
				list_expr_add($$, $3);
			}
		|	rhs_list COMMA expr
			{
				$$ = $1;
				$$->location = @$;
				list_expr_add($$, $3);
			}
		;

expr		:	primary
		|	expr '.' expr		{ $$ = concat($1, $3, &@$); }
		|	expr '|' expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	expr OR expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	expr '^' expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	expr XOR expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	expr '&' expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	expr AND expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	expr LSHIFT expr
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
		|	expr RSHIFT expr
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
		|	expr '-' expr
			{
				$$ = range_expr_alloc(&@$, $1, $3);
			}
		|	expr '/' expr		{ $$ = slash(&@$, $1, $3); }
		|	expr MAP primary
			{
				$$ = map_expr_alloc(&@$, $1, $3);
			}
		;

lhs		:	selector
		|	STRING		{ $$ = sym_expr(&@1, $1); }
		|	'(' lhs ')'	{ $$ = $2; }
		|	lhs '.' lhs		{ $$ = concat($1, $3, &@$); }
		|	lhs '|' primary
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	lhs OR primary
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	lhs '^' primary
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	lhs XOR primary
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	lhs '&' primary
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	lhs AND primary
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	lhs LSHIFT primary
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
		|	lhs RSHIFT primary
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
		;

primary		:	NUM		{ $$ = sym_expr(&@1, $1); }
		|	STRING		{ $$ = sym_expr(&@1, $1); }
		|	QUOTED_STRING
			{
				$$ = symbol_expr_alloc_own(&@1, SYMBOL_QUOTED, $1);
			}
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		|	kw_value	{ $$ = kw_expr(&@1, $1); }
		|	'*'		{ $$ = kw_expr(&@1, "*"); }
		|	'[' STRING ']'	{ $$ = sym_expr(&@$, $2); }
		|	'(' expr ')'	{ $$ = $2; }
		|	set_expr
		|	'@' identifier	{ $$ = set_ref(&@$, $2, &@2); }
		|	selector
		;

kw_value	:	IP | IP6 | ARP | INET | BRIDGE | NETDEV | PROTO
		|	EXTHDR_NAME | ORIGINAL | REPLY | EXISTS | MISSING
		|	DNAT | SNAT | REDIRECT | ALL | RESET | DESTROY
		;

/* Sets */

set_expr	:	'{' opt_nl '}'
			{
				$$ = list_expr_alloc(&@$, EXPR_SET);
			}
		|	'{' opt_nl set_elems opt_nl '}'
			{
				$$ = $3;
				$$->location = @$;
			}
		|	'{' opt_nl set_elems COMMA opt_nl '}'
			{
				$$ = $3;
				$$->location = @$;
			}
		;

set_elems	:	set_elem
			{
				$$ = list_expr_alloc(&@$, EXPR_SET);
				list_expr_add($$, $1);
			}
		|	set_elems COMMA opt_nl set_elem
			{
				$$ = $1;
				parser_set_elems_add(state, $$, $4);
			}
		;

set_elem	:	set_key
		|	set_key ':' elem_data
			{
				$$ = mapping_expr_alloc(&@$, $1, $3);
			}
		;

set_key		:	expr
			{
				$$ = set_elem_expr_alloc(&@$, $1);
			}
		|	set_key TIMEOUT time_arg
			{
				$$ = $1;
				$$->elem.timeout = time_ms(state, &@3, $3);
			}
		|	set_key EXPIRES time_arg
			{
				$$ = $1;
				$$->elem.expiration = time_ms(state, &@3, $3);
			}
		|	set_key COMMENT string
			{
				$$ = $1;
				free($$->elem.comment);
				$$->elem.comment = $3;
			}
		|	set_key elem_stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->elem.stmts);
			}
		;

elem_stmt	:	counter_stmt
		|	limit_stmt
		|	connlimit_stmt
		|	quota_stmt
		|	last_stmt
		;

elem_data	:	expr
		|	verdict_expr
		;

/* Selectors: the rules of selector, one group per kind */

field_name	:	STRING		{ $$ = keep_string(state, $1); }
		|	TYPE | PROTOCOL | FLAGS | PRIORITY | SEQUENCE | VERSION
		|	SIZE | GROUP | TTL | LEVEL | OFFSET | HANDLE | INDEX
		|	NAME | TIMESTAMP | HELPER | L3PROTO | BYTES | PACKETS
		;

key_name	:	field_name
		|	META_UKEY
		|	IPSEC
		|	SECMARK
		;

selector	:	PROTO field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	IP field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	IP6 field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	ARP field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	'@' STRING COMMA number COMMA number
			{
				$$ = raw_payload(state, &@$, $2, &@2, $4, $6);
				if (!$$)
					YYERROR;
			}
		|	'@' PROTO COMMA number COMMA number
			{
				$$ = raw_payload(state, &@$, strdup($2), &@2, $4,
						 $6);
				if (!$$)
					YYERROR;
			}
		;

opt_name	:	STRING		{ $$ = keep_string(state, $1); }
		|	TIMESTAMP | SACK_PERM | MSS
		;

opt_field	:	field_name
		|	COUNT
		;

selector	:	EXTHDR_NAME field_name
			{
				$$ = exthdr_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	EXTHDR EXTHDR_NAME
			{
				$$ = exthdr_sel(state, &@$, $2, &@2, NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	EXTHDR RT
			{
				$$ = exthdr_sel(state, &@$, $2, &@2, NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION opt_name opt_field
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3, $4,
						&@4);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION opt_name
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3,
						NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	IP OPTION opt_name opt_field
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3, $4,
						&@4);
				if (!$$)
					YYERROR;
			}
		|	IP OPTION opt_name
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3,
						NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION '@' number COMMA number COMMA number
			{
				$$ = raw_option(state, &@$, $1, &@1, $4, $6, $8);
				if (!$$)
					YYERROR;
			}
		|	PROTO CHUNK STRING field_name
			{
				/* stock's location: "data tsn" */
				struct location l = @3;

				l.last_line = @4.last_line;
				l.last_column = @4.last_column;
				$$ = chunk_sel(state, &l, $1, &@1, $3, &@3, $4,
					       &@4);
				free($3);
				if (!$$)
					YYERROR;
			}
		|	PROTO CHUNK STRING
			{
				$$ = chunk_sel(state, &@3, $1, &@1, $3, &@3,
					       NULL, NULL);
				free($3);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION number
			{
				/* an option by its kind: "tcp option 23" */
				$$ = raw_option(state, &@$, $1, &@1, $3, 0, 8);
				if (!$$)
					YYERROR;
				$$->exthdr.flags = NFT_EXTHDR_F_PRESENT;
				$$->dtype = &boolean_type;
			}
		;

selector	:	META key_name
			{
				$$ = meta_sel(state, &@$, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	META RANDOM
			{
				$$ = meta_sel(state, &@$, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	META_UKEY
			{
				$$ = meta_sel(state, &@$, $1, &@1);
				if (!$$)
					YYERROR;
			}
		;

selector	:	CT key_name
			{
				$$ = ct_sel(state, &@$, -1, 0, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	CT ORIGINAL key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_ORIGINAL, 0, $3,
					    &@3);
				if (!$$)
					YYERROR;
			}
		|	CT REPLY key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_REPLY, 0, $3,
					    &@3);
				if (!$$)
					YYERROR;
			}
		|	CT ORIGINAL family key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_ORIGINAL, $3, $4,
					    &@4);
				if (!$$)
					YYERROR;
			}
		|	CT REPLY family key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_REPLY, $3, $4,
					    &@4);
				if (!$$)
					YYERROR;
			}
		;

selector	:	RT key_name
			{
				$$ = rt_sel(state, &@$, 0, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	RT IP key_name
			{
				$$ = rt_sel(state, &@$, NFPROTO_IPV4, $3, &@3);
				if (!$$)
					YYERROR;
			}
		|	RT IP6 key_name
			{
				$$ = rt_sel(state, &@$, NFPROTO_IPV6, $3, &@3);
				if (!$$)
					YYERROR;
			}
		;

selector	:	SOCKET key_name
			{
				$$ = socket_sel(state, &@$, $2, &@2, 0);
				if (!$$)
					YYERROR;
			}
		|	SOCKET key_name LEVEL number
			{
				$$ = socket_sel(state, &@$, $2, &@2, $4);
				if (!$$)
					YYERROR;
			}
		;

selector	:	OSF osf_ttl NAME
			{
				$$ = osf_expr_alloc(&@$, $2, 0);
			}
		|	OSF osf_ttl VERSION
			{
				$$ = osf_expr_alloc(&@$, $2, NFT_OSF_F_VERSION);
			}
		;

osf_ttl		:	%empty		{ $$ = 0; }
		|	TTL STRING
			{
				$$ = osf_ttl_lookup(state, $2, &@2);
			}
		;

selector	:	FIB fib_flags key_name
			{
				$$ = fib_sel(state, &@$, $2, $3, &@3);
				if (!$$)
					YYERROR;
			}
		;

fib_flags	:	fib_flag
		|	fib_flags '.' fib_flag	{ $$ = $1 | $3; }
		;

fib_flag	:	STRING
			{
				$$ = fib_flag_lookup(state, $1, &@1);
			}
		|	META_UKEY
			{
				$$ = fib_flag_lookup(state, strdup($1), &@1);
			}
		;

selector	:	NUMGEN STRING MOD number numgen_offset
			{
				$$ = numgen_sel(state, &@$, $2, &@2, $4, $5);
			}
		|	NUMGEN RANDOM MOD number numgen_offset
			{
				$$ = numgen_expr_alloc(&@$, NFT_NG_RANDOM, $4, $5);
			}
		;

numgen_offset	:	%empty			{ $$ = 0; }
		|	OFFSET number		{ $$ = $2; }
		;

selector	:	JHASH lhs MOD number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $4, false, 0, $5,
						     NFT_HASH_JENKINS);
				$$->hash.expr = $2;
			}
		|	JHASH lhs MOD number SEED number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $4, true, $6, $7,
						     NFT_HASH_JENKINS);
				$$->hash.expr = $2;
			}
		|	SYMHASH MOD number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $3, false, 0, $4,
						     NFT_HASH_SYM);
			}
		;

selector	:	IPSEC STRING key_name
			{
				$$ = xfrm_sel(state, &@$, $2, &@2, 0, 0, $3, &@3);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING SPNUM number key_name
			{
				struct location l = location_join(&@3, &@4);

				if ($4 > 255)
					erec_error(state->erq, &l, "value too large");
				$$ = xfrm_sel(state, &@$, $2, &@2, $4, 0, $5, &@5);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING family key_name
			{
				$$ = xfrm_sel(state, &@$, $2, &@2, 0, $3, $4, &@4);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING SPNUM number family key_name
			{
				struct location l = location_join(&@3, &@4);

				if ($4 > 255)
					erec_error(state->erq, &l, "value too large");
				$$ = xfrm_sel(state, &@$, $2, &@2, $4, $5, $6,
					      &@6);
				if (!$$)
					YYERROR;
			}
		;

