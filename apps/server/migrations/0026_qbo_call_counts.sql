CREATE TABLE "qbo_call_counts" (
	"realm_id" text NOT NULL,
	"day" date NOT NULL,
	"reads" integer DEFAULT 0 NOT NULL,
	"writes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "qbo_call_counts_realm_id_day_pk" PRIMARY KEY("realm_id","day")
);
