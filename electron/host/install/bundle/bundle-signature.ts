import { X509Certificate, createHash, verify as verifySignature } from 'node:crypto';
import type Forge from 'node-forge';
import type { BundleSignature } from '../../../../shared/model/bundle.js';
import { describeError } from '../../errors.js';
import { ellipsize } from '../../text.js';
import type { McpbNode } from './mcpb.js';

/**
 * The signature of a .mcpb file, as `mcpb sign` writes it: a detached PKCS#7
 * SignedData over the zip, appended as `MCPB_SIG_V1 <length> <DER> MCPB_SIG_END`.
 *
 * The block is found with the official package's `extractSignatureBlock`, and
 * the certificate's trust is asked of the OS with its `verifyCertificateChain`
 * (macOS keychain, Windows store, OpenSSL's CA folder on Linux). The
 * cryptographic check itself is done here: in @anthropic-ai/mcpb 2.1.2
 * `verifyMcpbFile` calls node-forge's PKCS#7 `verify()`, which forge has never
 * implemented, so it reports every signed bundle as "unsigned" and cannot tell
 * a tampered file from an unsigned one (modelcontextprotocol/mcpb#276). Here
 * (RFC 5652 §5.4): the signed `messageDigest` attribute must equal the hash of
 * the zip, and the signer's signature must verify over the DER of the signed
 * attributes with the certificate's public key (node:crypto). forge is used
 * only to walk the ASN.1.
 */

export interface SignatureCheck {
  signature: BundleSignature;
  /** The zip itself: the file without its signature block. */
  zip: Buffer;
}

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;
const HASHES: Record<string, string> = {
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};
const FOOTER = Buffer.from('MCPB_SIG_END', 'utf8');

/** Reads the signature state of a bundle's bytes; never throws for a bad signature (that is "invalid"). */
export async function checkBundleSignature(
  content: Buffer,
  mcpb: Pick<McpbNode, 'extractSignatureBlock' | 'verifyCertificateChain'>,
): Promise<SignatureCheck> {
  // A signature block ends the file. The marker found anywhere else is just bytes of some file in the zip.
  if (!content.subarray(content.length - FOOTER.length).equals(FOOTER))
    return { signature: { state: 'unsigned' }, zip: content };
  const { originalContent, pkcs7Signature } = mcpb.extractSignatureBlock(content);
  if (!pkcs7Signature) return { signature: { state: 'unsigned' }, zip: content };
  const invalid = (reason: string): SignatureCheck => ({
    signature: { state: 'invalid', reason },
    zip: originalContent,
  });
  let parsed: ParsedSignature;
  try {
    // Loaded on first use: it takes ~90 ms, which the app's start should not pay.
    const forge = (await import('node-forge')).default;
    parsed = parseSignedData(forge, pkcs7Signature);
  } catch (error) {
    return invalid(`the signature block cannot be read (${describeError(error)})`);
  }
  const digest = createHash(parsed.hash);
  if (
    !signedContents(content, originalContent).some((bytes) =>
      digestOf(digest.copy(), bytes).equals(parsed.messageDigest),
    )
  )
    return invalid('the file was changed after it was signed');
  const good = verifySignature(
    parsed.hash,
    parsed.signedAttributes,
    parsed.signer.publicKey,
    parsed.signature,
  );
  if (!good) return invalid('the signature does not match its certificate');

  const cert = parsed.signer;
  const selfSigned = cert.checkIssued(cert) && cert.verify(cert.publicKey);
  const others = parsed.certificates.filter((c) => c !== cert).map((c) => Buffer.from(c.toString()));
  const trusted = await mcpb.verifyCertificateChain(Buffer.from(cert.toString()), others).catch(() => false);
  return {
    signature: {
      state: 'signed',
      publisher: ellipsize(commonName(cert.subject), 200),
      issuer: ellipsize(commonName(cert.issuer), 200),
      trusted,
      selfSigned,
      validFrom: isoDate(cert.validFrom),
      validTo: isoDate(cert.validTo),
      fingerprint: cert.fingerprint256.replace(/:/g, '').toLowerCase(),
    },
    zip: originalContent,
  };
}

function digestOf(hash: ReturnType<typeof createHash>, bytes: Buffer): Buffer {
  return hash.update(bytes).digest();
}

/**
 * The bytes that may have been signed: the zip as it stands, and (newer
 * `mcpb sign` versions) the zip before its end record's comment length was
 * grown to cover the appended block.
 */
function signedContents(file: Buffer, zip: Buffer): Buffer[] {
  const candidates = [zip];
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd >= 0 && eocd + 22 <= zip.length) {
    const comment = zip.readUInt16LE(eocd + 20);
    const block = file.length - zip.length;
    if (comment >= block && eocd + 22 + comment - block === zip.length) {
      const restored = Buffer.from(zip);
      restored.writeUInt16LE(comment - block, eocd + 20);
      candidates.push(restored);
    }
  }
  return candidates;
}

interface ParsedSignature {
  hash: string;
  messageDigest: Buffer;
  signedAttributes: Buffer;
  signature: Buffer;
  signer: X509Certificate;
  certificates: X509Certificate[];
}

type Asn1 = Forge.asn1.Asn1;
/** X.690 tag classes and numbers (forge.asn1's Class and Type, without loading forge at import). */
const CONTEXT_SPECIFIC = 0x80;
const UNIVERSAL = 0x00;
const OCTETSTRING = 4;

function children(node: Asn1 | undefined, what: string): Asn1[] {
  if (!node || !Array.isArray(node.value)) throw new Error(`${what} is missing`);
  return node.value;
}

function bytesOf(node: Asn1 | undefined, what: string): string {
  if (!node || typeof node.value !== 'string') throw new Error(`${what} is missing`);
  return node.value;
}

const binary = (bytes: string): Buffer => Buffer.from(bytes, 'binary');
const isContext = (node: Asn1, tag: number) =>
  (node.tagClass as number) === CONTEXT_SPECIFIC && (node.type as number) === tag;

/** The parts of a detached SignedData needed to check it (first signer only, as `mcpb sign` makes one). */
function parseSignedData(forge: typeof Forge, block: Buffer): ParsedSignature {
  const der = (node: Asn1): Buffer => binary(forge.asn1.toDer(node).getBytes());
  const root = forge.asn1.fromDer(forge.util.createBuffer(block.toString('binary')), true);
  const [type, wrapped] = children(root, 'ContentInfo');
  if (forge.asn1.derToOid(bytesOf(type, 'content type')) !== OID.signedData)
    throw new Error('not SignedData');
  const signedData = children(wrapped, 'SignedData')[0];
  const parts = children(signedData, 'SignedData');
  const certificates = children(
    parts.find((part) => isContext(part, 0)),
    'certificates',
  ).map((cert) => new X509Certificate(der(cert)));
  const signerInfos = children(parts[parts.length - 1], 'signerInfos');
  const info = children(signerInfos[0], 'signerInfo');
  const [, issuerAndSerial, digestAlgorithm] = info;
  const attributes = info.find((part) => isContext(part, 0));
  const signature = info.find(
    (part, i) => i > 3 && (part.tagClass as number) === UNIVERSAL && (part.type as number) === OCTETSTRING,
  );
  const hashOid = forge.asn1.derToOid(
    bytesOf(children(digestAlgorithm, 'digest algorithm')[0], 'digest algorithm'),
  );
  const hash = HASHES[hashOid];
  if (hash === undefined) throw new Error(`unsupported digest ${hashOid}`);
  const serial = normalSerial(
    forge.util.bytesToHex(bytesOf(children(issuerAndSerial, 'issuer and serial')[1], 'serial')),
  );
  const signer = certificates.find((cert) => normalSerial(cert.serialNumber) === serial);
  if (!signer) throw new Error("the signer's certificate is not in the block");
  const attributeList = children(attributes, 'signed attributes');
  const digestAttribute = attributeList.find((attribute) => {
    const [oid] = children(attribute, 'attribute');
    return forge.asn1.derToOid(bytesOf(oid, 'attribute type')) === OID.messageDigest;
  });
  const messageDigest = binary(
    bytesOf(children(children(digestAttribute, 'messageDigest')[1], 'digest')[0], 'digest'),
  );
  // The signature covers the attributes encoded as a SET OF, not with their [0] tag (RFC 5652 §5.4).
  const signedAttributes = der(
    forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributeList),
  );
  return {
    hash,
    messageDigest,
    signedAttributes,
    signature: binary(bytesOf(signature, 'signature')),
    signer,
    certificates,
  };
}

const normalSerial = (hex: string): string => hex.toUpperCase().replace(/^0+/, '');

/** "CN=Jane, O=Acme" → "Jane"; falls back to the organisation, then the whole name. */
function commonName(name: string): string {
  const lines = name.split('\n');
  const pick = (key: string) => lines.find((line) => line.startsWith(`${key}=`))?.slice(key.length + 1);
  return pick('CN') ?? pick('O') ?? (name.trim() || 'Unknown');
}

function isoDate(text: string): string {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? ellipsize(text, 64) : date.toISOString();
}
