// `npm run admin -- <command> [arguments]`: operator commands against DATABASE_URL.
import { chainCommands } from '../server/admin/chain-commands.ts';
import { dbCopyCommands } from '../server/admin/db-copy.ts';
import { ledgerCommands } from '../server/admin/ledger-commands.ts';
import { proofCommands } from '../server/admin/proof-commands.ts';
import { telegramCommands } from '../server/admin/telegram-commands.ts';
import { CommandError, ROLES, userCommands } from '../server/admin/user-commands.ts';
import { readConfig } from '../server/config.ts';
import { displayUrl, openMigrated } from './open-database.ts';

const USAGE = `Usage: npm run admin -- <command> [arguments]

  user:create <email> <password> [username]   a verified account
  user:verify-email <email>                    mark the e-mail address verified
  user:verify-id <email> ["Full Name"]         mark the identity verified (bitcoin conversion, ID-only offers, level 3),
                                               with the name on the document checked elsewhere
  user:verify-address <email> ["reason"]       mark the address verified (level 4 of the trading limits)
  user:role <email> <role> [on|off]            roles: ${ROLES.join(', ')}
  user:ban <email> ["reason"]                  cannot sign in; sessions end
  user:suspend <email> ["reason"]              sessions end; can sign in again, cannot trade
  user:reinstate <email> ["reason"]            undo ban or suspension
  user:reset-2fa <email> ["reason"]            remove the second factor; sessions end
  user:end-sessions <email> ["reason"]         end every session of the person
                                               (each user: command is a row of the operators' audit log,
                                               naming this operating-system user and the reason)
  telegram:start <token> <chatId>              act as the bot: link the chat of a subscription link
  ledger:verify                                check the ledger's invariants; exit status 1 on any violation
  proof:publish                                publish the proof of liabilities now (Merkle-sum roots per currency)
  chain:deposit <email> <amount> <BTC|USDT>    simulated chain: an incoming deposit to the user's address
  chain:mine [blocks]                          simulated chain: mine blocks (1 bitcoin, 10 TRON each) and credit
  db:copy-to <postgres-url>                    copy this SQLite database into an empty PostgreSQL one, then verify
`;

const [command, ...args] = process.argv.slice(2);
const config = readConfig();
const { DATABASE_URL } = config;
const opened = await openMigrated(DATABASE_URL);
const db = opened.database;
const users = userCommands(db);

const need = (count: number) => {
  if (args.length < count) throw new CommandError(`${command} needs ${count} argument(s).\n\n${USAGE}`);
  return args as string[] & { 0: string; 1: string };
};

try {
  let message: string;
  switch (command) {
    case 'user:create': {
      const [email, password] = need(2);
      message = await users.create(email, password, args[2]);
      break;
    }
    case 'user:verify-email':
      message = await users.verifyEmail(need(1)[0]);
      break;
    case 'user:verify-id':
      message = await users.verifyId(need(1)[0], args[1]);
      break;
    case 'user:verify-address':
      message = await users.verifyAddress(need(1)[0], args[1]);
      break;
    case 'user:role': {
      const [email, role] = need(2);
      message = await users.role(email, role, args[2]);
      break;
    }
    case 'user:ban':
      message = await users.ban(need(1)[0], args[1]);
      break;
    case 'user:suspend':
      message = await users.suspend(need(1)[0], args[1]);
      break;
    case 'user:reinstate':
      message = await users.reinstate(need(1)[0], args[1]);
      break;
    case 'user:reset-2fa':
      message = await users.resetTwoFactor(need(1)[0], args[1]);
      break;
    case 'user:end-sessions':
      message = await users.endSessions(need(1)[0], args[1]);
      break;
    case 'telegram:start': {
      const [token, chatId] = need(2);
      message = await telegramCommands(db).start(token, chatId);
      break;
    }
    case 'ledger:verify':
      message = await ledgerCommands(db).verify();
      break;
    case 'proof:publish':
      message = await proofCommands(db).publish();
      break;
    case 'chain:deposit': {
      const [email, amount] = need(3);
      message = await chainCommands(db, config).deposit(email, amount, args[2] as string);
      break;
    }
    case 'chain:mine':
      message = await chainCommands(db, config).mine(args[0]);
      break;
    case 'db:copy-to':
      message = await dbCopyCommands(db, { log: console.log, displayUrl }).copyTo(need(1)[0], DATABASE_URL);
      break;
    default:
      throw new CommandError(command ? `Unknown command ${command}.\n\n${USAGE}` : USAGE);
  }
  console.log(message);
} catch (error) {
  if (!(error instanceof CommandError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await opened.close();
}
