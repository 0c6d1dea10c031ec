import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/**
 * Resources the person attached to the next chat message. The resources
 * view adds to it ("Attach to chat"); the chat composer reads it, shows the
 * chips and clears it when the message is sent. Only references live here:
 * the host reads the contents when the message is sent.
 */
export interface ResourceAttachment {
  /** `${server}\n${uri}`: one attachment per resource of a server. */
  readonly id: string;
  readonly server: string;
  readonly uri: string;
  /** What to show on the chip: the resource's title or name, else its URI. */
  readonly label: string;
  readonly mimeType?: string | undefined;
}

export interface AttachmentsState {
  readonly attachments: readonly ResourceAttachment[];
  /** Adds a resource (no duplicates); returns false when it was already attached. */
  attach: (attachment: Omit<ResourceAttachment, 'id'>) => boolean;
  detach: (id: string) => void;
  clear: () => void;
}

export const attachmentId = (server: string, uri: string): string => `${server}\n${uri}`;

export function createAttachmentsStore() {
  return createStore<AttachmentsState>()((set, get) => ({
    attachments: [],
    attach(attachment) {
      const id = attachmentId(attachment.server, attachment.uri);
      if (get().attachments.some((a) => a.id === id)) return false;
      set((s) => ({ attachments: [...s.attachments, { ...attachment, id }] }));
      return true;
    },
    detach(id) {
      set((s) => ({ attachments: s.attachments.filter((a) => a.id !== id) }));
    },
    clear() {
      set({ attachments: [] });
    },
  }));
}

/** The window's one attachments store. */
export const attachmentsStore = createAttachmentsStore();

/** Reads a slice of the attachments (selectors must return stable values). */
export function useAttachments<T>(selector: (state: AttachmentsState) => T): T {
  return useStore(attachmentsStore, selector);
}
